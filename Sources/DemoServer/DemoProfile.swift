import Foundation
import OpenAPIRuntime
import SwaggerAPI

/// The built-in account's profile: every field the API names, with non-ASCII text, plus fields of the
/// server's own, one of them nested, as real deployments send.
enum DemoProfile {
    static var profile: Components.Schemas.User {
        var profile = Components.Schemas.User(
            id: 1024,
            name: "Ana",
            surname: "Horvat",
            fullName: "Ana Horvat",
            imageId: -1,
            adress: "Ulica kralja Zvonimira 12, 40000 Čakovec",
            phonenumber: "+385 40 123 456",
            oib: "69435151530",
            email: AccountDirectory.demoEmail,
            statusId: 1
        )
        profile.additionalProperties =
            (try? OpenAPIObjectContainer(unvalidatedValue: [
                "role": "administrator",
                "organisation": ["name": "Primjer d.o.o.", "city": "Zagreb"],
            ])) ?? OpenAPIObjectContainer()
        return profile
    }
}

extension DemoProfile {
    /// The profile to send for a stored profile object: the generated `User`, checked against the schema, with
    /// every member that was explicitly `null` sent as `null`.
    ///
    /// The generated type leaves out a known property that is `nil`, so an explicit `null` for one of them is
    /// carried as an additional property instead, which encodes as `null` under the same name.
    static func wire(_ json: Data) throws -> Components.Schemas.User {
        var profile = try JSONDecoder().decode(Components.Schemas.User.self, from: json)
        let members = try JSONDecoder().decode(OpenAPIObjectContainer.self, from: json).value
        let explicitNulls = members.filter { $0.value == nil }.map(\.key)
        if !explicitNulls.isEmpty {
            var additional = profile.additionalProperties.value
            for name in explicitNulls { additional[name] = .some(nil) }
            profile.additionalProperties = try OpenAPIObjectContainer(unvalidatedValue: additional)
        }
        return profile
    }
}
