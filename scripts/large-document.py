"""Writes an OpenAPI 3.1 document of 2,000 operations to stdout, for the completion bench: 1,000 paths with a GET and a
POST each, a query enum and a path parameter, a request body that refers to one of 200 schemas, and a login and
profile that discovery reads, so that `swaggerctl server set` keeps the document as it would a real server's."""

import json

schemas = {
    f"Thing{i}": {
        "type": "object",
        "required": ["name"],
        "properties": {f"field{j}": {"type": "string"} for j in range(8)} | {"name": {"type": "string"}},
    }
    for i in range(200)
}
schemas["Login"] = {
    "type": "object",
    "required": ["username", "password"],
    "properties": {"username": {"type": "string"}, "password": {"type": "string"}},
}
schemas["Token"] = {"type": "object", "properties": {"access_token": {"type": "string"}}}
paths = {
    "/login": {
        "post": {
            "operationId": "login",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Login"}}}},
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Token"}}},
                }
            },
        }
    },
    "/me": {"get": {"operationId": "getMe", "security": [{"bearer": []}], "responses": {"200": {"description": "ok"}}}},
}
for i in range(999):
    parameters = [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
        {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["asc", "desc", "none"]}},
    ]
    body = {"$ref": f"#/components/schemas/Thing{i % 200}"}
    paths[f"/resource{i}/{{id}}"] = {
        "get": {"operationId": f"getResource{i}", "summary": f"Read resource {i}.", "parameters": parameters,
                "responses": {"200": {"description": "ok"}}},
        "post": {"operationId": f"updateResource{i}", "summary": f"Change resource {i}.", "parameters": parameters[:1],
                 "requestBody": {"content": {"application/json": {"schema": body}}},
                 "responses": {"200": {"description": "ok"}}},
    }
document = {
    "openapi": "3.1.0",
    "info": {"title": "Two thousand operations", "version": "1"},
    "paths": paths,
    "components": {"schemas": schemas, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    "security": [{"bearer": []}],
}
json.dump(document, __import__("sys").stdout)
