#ifndef CJSONSCAN_H
#define CJSONSCAN_H

#include <stdint.h>

/// The bytes of a 64-byte block that JSON's structure is read from, one bit a byte, the first byte in the lowest
/// bit: `"`, `\`, `{` or `[`, `}` or `]`, and `,`.
typedef struct {
    uint64_t quotes;
    uint64_t backslashes;
    uint64_t opens;
    uint64_t closes;
    uint64_t commas;
} swaggerctl_json_block;

/// Classifies the 64 bytes at `bytes`, all of which must be readable: with SSE2, sixteen bytes to a comparison.
swaggerctl_json_block swaggerctl_json_classify(const uint8_t *bytes);

#endif
