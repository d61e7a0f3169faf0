/// The version of swaggerctl, sent in the `User-Agent` header and printed by `--version`.
public enum SwaggerClientVersion {
    /// The version string.
    public static let current = "0.1.0"
}
