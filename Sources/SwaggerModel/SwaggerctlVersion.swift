/// The version of swaggerctl, sent in the `User-Agent` header and printed by `--version`.
package enum SwaggerctlVersion {
    package static let current = "0.1.0"
}
