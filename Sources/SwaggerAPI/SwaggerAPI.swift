// The generated types and server for openapi.yaml live in this module: the demo server serves them; swaggerctl
// reads the document as it reads any server's.
