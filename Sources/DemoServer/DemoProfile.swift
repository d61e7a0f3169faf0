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
