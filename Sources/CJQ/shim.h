#ifndef SWAGGERCTL_CJQ_SHIM_H
#define SWAGGERCTL_CJQ_SHIM_H

// libjq's public API (jq 1.6, Debian's libjq1), for its types and the functions' signatures. swaggerctl does
// not link libjq: it loads it with dlopen when `api --jq` is first used, so that every other command never
// maps libjq and the Oniguruma regex library it needs. Swift calls the functions through the pointers that
// dlsym returns, typed by the typedefs below.
#include <jq.h>
#include <jv.h>

// One function-pointer type for each function swaggerctl looks up, with the function's own signature.
typedef __typeof__(&jq_init) swaggerctl_jq_init;
typedef __typeof__(&jq_set_error_cb) swaggerctl_jq_set_error_cb;
typedef __typeof__(&jq_set_debug_cb) swaggerctl_jq_set_debug_cb;
typedef __typeof__(&jq_set_input_cb) swaggerctl_jq_set_input_cb;
typedef __typeof__(&jq_set_attr) swaggerctl_jq_set_attr;
typedef __typeof__(&jq_compile) swaggerctl_jq_compile;
typedef __typeof__(&jq_start) swaggerctl_jq_start;
typedef __typeof__(&jq_next) swaggerctl_jq_next;
typedef __typeof__(&jq_halted) swaggerctl_jq_halted;
typedef __typeof__(&jq_get_exit_code) swaggerctl_jq_get_exit_code;
typedef __typeof__(&jq_get_error_message) swaggerctl_jq_get_error_message;
typedef __typeof__(&jq_teardown) swaggerctl_jq_teardown;
typedef __typeof__(&jv_parser_new) swaggerctl_jv_parser_new;
typedef __typeof__(&jv_parser_set_buf) swaggerctl_jv_parser_set_buf;
typedef __typeof__(&jv_parser_next) swaggerctl_jv_parser_next;
typedef __typeof__(&jv_parser_free) swaggerctl_jv_parser_free;
typedef __typeof__(&jv_get_kind) swaggerctl_jv_get_kind;
typedef __typeof__(&jv_copy) swaggerctl_jv_copy;
typedef __typeof__(&jv_free) swaggerctl_jv_free;
typedef __typeof__(&jv_invalid_has_msg) swaggerctl_jv_invalid_has_msg;
typedef __typeof__(&jv_invalid_get_msg) swaggerctl_jv_invalid_get_msg;
typedef __typeof__(&jv_string) swaggerctl_jv_string;
typedef __typeof__(&jv_string_value) swaggerctl_jv_string_value;
typedef __typeof__(&jv_string_length_bytes) swaggerctl_jv_string_length_bytes;
typedef __typeof__(&jv_array) swaggerctl_jv_array;
typedef __typeof__(&jv_number_value) swaggerctl_jv_number_value;
typedef __typeof__(&jv_dump_string) swaggerctl_jv_dump_string;

#endif
