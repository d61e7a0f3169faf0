// libyaml, the YAML parser Debian ships (libyaml-0-2), for reading OpenAPI documents written in YAML.
#include <yaml.h>
