#include "CJSONScan.h"

#if defined(__SSE2__)
#include <emmintrin.h>

static inline uint64_t matching(__m128i bytes, char byte) {
    return (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(byte)));
}

swaggerctl_json_block swaggerctl_json_classify(const uint8_t *bytes) {
    swaggerctl_json_block block = {0, 0, 0, 0, 0};
    for (int part = 0; part < 4; part++) {
        const __m128i plain = _mm_loadu_si128((const __m128i *)(bytes + 16 * part));
        // `[` and `{` differ by the bit 0x20 alone, as do `]` and `}`; no other byte becomes either with it set.
        const __m128i folded = _mm_or_si128(plain, _mm_set1_epi8(0x20));
        const int shift = 16 * part;
        block.quotes |= matching(plain, '"') << shift;
        block.backslashes |= matching(plain, '\\') << shift;
        block.opens |= matching(folded, '{') << shift;
        block.closes |= matching(folded, '}') << shift;
        block.commas |= matching(plain, ',') << shift;
    }
    return block;
}

#else

swaggerctl_json_block swaggerctl_json_classify(const uint8_t *bytes) {
    swaggerctl_json_block block = {0, 0, 0, 0, 0};
    for (int index = 0; index < 64; index++) {
        const uint64_t bit = (uint64_t)1 << index;
        const uint8_t folded = bytes[index] | 0x20;
        if (bytes[index] == '"') block.quotes |= bit;
        if (bytes[index] == '\\') block.backslashes |= bit;
        if (folded == '{') block.opens |= bit;
        if (folded == '}') block.closes |= bit;
        if (bytes[index] == ',') block.commas |= bit;
    }
    return block;
}

#endif
