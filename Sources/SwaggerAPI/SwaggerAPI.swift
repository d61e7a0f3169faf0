// The generated types, client and server for openapi.yaml live in this module.
