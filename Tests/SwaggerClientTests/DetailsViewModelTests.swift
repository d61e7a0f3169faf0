import Foundation
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput
import TestSupport
import Testing

@testable import SwaggerClient

@Suite("DetailsViewModel: the rows of the details table", .timeLimit(.minutes(5)))
struct DetailsViewModelTests {
    /// The labels the original preset gives the bundled API's profile.
    static let original = Fixtures.original().profile.labels

    static let labels = [
        "ID", "First name", "Last name", "Full name", "Image ID", "Address", "Phone number", "OIB", "E-mail", "Status",
    ]

    /// The ten known rows with every value `unknown`.
    static let allUnknown = labels.map { DetailsViewModel(key: $0, value: "unknown") }

    /// `allUnknown` with some values set.
    static func known(_ values: [String: String]) -> [DetailsViewModel] {
        labels.map { DetailsViewModel(key: $0, value: values[$0] ?? "unknown") }
    }

    @Test("a full profile gives the ten known rows, in order, with their labels")
    func fullProfile() throws {
        let profile = try Fixtures.profile(
            """
            {"statusId": 1, "email": "ana@example.com", "oib": "12345678903", "phonenumber": "+385 1 234 5678",
             "adress": "Ilica 1, Zagreb", "imageId": 7, "fullName": "Ana Horvat", "surname": "Horvat",
             "name": "Ana", "id": 1024}
            """)

        #expect(
            DetailsViewModel.rows(for: profile, labels: Self.original) == [
                DetailsViewModel(key: "ID", value: "1024"),
                DetailsViewModel(key: "First name", value: "Ana"),
                DetailsViewModel(key: "Last name", value: "Horvat"),
                DetailsViewModel(key: "Full name", value: "Ana Horvat"),
                DetailsViewModel(key: "Image ID", value: "7"),
                DetailsViewModel(key: "Address", value: "Ilica 1, Zagreb"),
                DetailsViewModel(key: "Phone number", value: "+385 1 234 5678"),
                DetailsViewModel(key: "OIB", value: "12345678903"),
                DetailsViewModel(key: "E-mail", value: "ana@example.com"),
                DetailsViewModel(key: "Status", value: "1"),
            ])
    }

    @Test("an empty profile still shows every known row, as unknown")
    func emptyProfile() throws {
        #expect(DetailsViewModel.rows(for: try Fixtures.profile("{}"), labels: Self.original) == Self.allUnknown)
    }

    @Test("JSON nulls show as unknown")
    func nulls() throws {
        let profile = try Fixtures.profile(
            """
            {"id": null, "name": null, "surname": null, "fullName": null, "imageId": null, "adress": null,
             "phonenumber": null, "oib": null, "email": null, "statusId": null}
            """)

        #expect(DetailsViewModel.rows(for: profile, labels: Self.original) == Self.allUnknown)
    }

    @Test("missing and null fields show as unknown next to present ones")
    func someMissing() throws {
        let profile = try Fixtures.profile(#"{"id": 5, "name": "Ana", "surname": null, "email": "a@b.hr"}"#)

        #expect(
            DetailsViewModel.rows(for: profile, labels: Self.original)
                == Self.known(["ID": "5", "First name": "Ana", "E-mail": "a@b.hr"]))
    }

    @Test(
        "an image id of -1 means no image and shows as unknown; others show as the number",
        arguments: [("-1", "unknown"), ("7", "7"), ("0", "0"), ("-2", "-2"), ("null", "unknown")])
    func imageID(json: String, shown: String) throws {
        let profile = try Fixtures.profile(#"{"imageId": \#(json)}"#)

        #expect(DetailsViewModel.rows(for: profile, labels: Self.original) == Self.known(["Image ID": shown]))
    }

    @Test(
        "booleans, integers and doubles show as text",
        arguments: [
            ("true", "true"), ("false", "false"), ("42", "42"), ("-7", "-7"), ("1.5", "1.5"), ("2.0", "2"),
            ("-0.25", "-0.25"), ("1e3", "1000"), ("9007199254740993", "9007199254740993"),
        ])
    func scalars(json: String, shown: String) throws {
        let profile = try Fixtures.profile(#"{"statusId": \#(json), "zExtra": \#(json)}"#)

        #expect(
            DetailsViewModel.rows(for: profile, labels: Self.original)
                == Self.known(["Status": shown]) + [DetailsViewModel(key: "zExtra", value: shown)])
    }

    @Test("extra fields come after the known ones, sorted, nested objects flattened as parent.child")
    func extraFields() throws {
        let profile = try Fixtures.profile(
            """
            {"zeta": 1, "id": 3, "alpha": {"beta": {"gamma": true}, "a": "x"}, "city": "Zürich",
             "list": [1, "two", null, {"k": "v", "b": [true]}, "a/b"], "flag": false, "ratio": 1.5,
             "whole": 2.0, "empty": {}, "nothing": null, "emptyList": []}
            """)

        #expect(
            DetailsViewModel.rows(for: profile, labels: Self.original)
                == Self.known(["ID": "3"]) + [
                    DetailsViewModel(key: "alpha.a", value: "x"),
                    DetailsViewModel(key: "alpha.beta.gamma", value: "true"),
                    DetailsViewModel(key: "city", value: "Zürich"),
                    DetailsViewModel(key: "empty", value: "{}"),
                    DetailsViewModel(key: "emptyList", value: "[]"),
                    DetailsViewModel(key: "flag", value: "false"),
                    DetailsViewModel(key: "list", value: #"[1,"two",null,{"b":[true],"k":"v"},"a/b"]"#),
                    DetailsViewModel(key: "nothing", value: "unknown"),
                    DetailsViewModel(key: "ratio", value: "1.5"),
                    DetailsViewModel(key: "whole", value: "2"),
                    DetailsViewModel(key: "zeta", value: "1"),
                ])
    }

    @Test("deep nesting is flattened as a.b.c, with nulls inside objects shown as unknown")
    func deepNesting() throws {
        let profile = try Fixtures.profile(#"{"a": {"b": {"c": "deep", "d": null}, "e": [1, {"f": 2}]}}"#)

        #expect(
            Array(DetailsViewModel.rows(for: profile, labels: Self.original).dropFirst(10)) == [
                DetailsViewModel(key: "a.b.c", value: "deep"),
                DetailsViewModel(key: "a.b.d", value: "unknown"),
                DetailsViewModel(key: "a.e", value: #"[1,{"f":2}]"#),
            ])
    }

    @Test("a known field holding an object or array shows as compact JSON, not flattened")
    func knownFieldWithObject() throws {
        let profile = try Fixtures.profile(
            #"{"adress": {"street": "Ilica 1", "city": "Zagreb"}, "phonenumber": ["+385 1", "+385 91"]}"#)

        #expect(
            DetailsViewModel.rows(for: profile, labels: Self.original)
                == Self.known([
                    "Address": #"{"city":"Zagreb","street":"Ilica 1"}"#, "Phone number": #"["+385 1","+385 91"]"#,
                ]))
    }

    @Test("non-ASCII text is kept as sent, in values and in arrays")
    func nonASCII() throws {
        let profile = try Fixtures.profile(
            #"{"name": "Željka", "surname": "Šimić-Čolak", "fullName": "山田 花子 👍", "tags": ["ćevapi", "名前"]}"#)

        #expect(
            DetailsViewModel.rows(for: profile, labels: Self.original)
                == Self.known(["First name": "Željka", "Last name": "Šimić-Čolak", "Full name": "山田 花子 👍"])
                + [DetailsViewModel(key: "tags", value: #"["ćevapi","名前"]"#)])
    }

    @Test("the original preset's field names map to the labels, in display order")
    func knownFields() {
        #expect(
            Self.original.map(\.field) == [
                "id", "name", "surname", "fullName", "imageId", "adress", "phonenumber", "oib", "email", "statusId",
            ])
        #expect(Self.original.map(\.label) == Self.labels)
    }

    @Test("the JSON output writes \"key\": value as jq and api do, and empty objects and arrays as {} and []")
    func emptyContainersInJSON() throws {
        #expect(try Fixtures.profile("{}").prettyJSON == "{}\n")
        let nested = try Fixtures.profile(#"{"roles": [], "meta": {}, "tags": ["a"], "name": "{\n\n}"}"#)
        #expect(
            nested.prettyJSON == #"""
                {
                  "meta": {},
                  "name": "{\n\n}",
                  "roles": [],
                  "tags": [
                    "a"
                  ]
                }

                """#)
    }
}
