import FoundationEssentials
import SwaggerModel

/// Part of a server's description, in the description language, and whose it is: a preset, what the server's
/// documents say, the server registry's saved entry, a `--server-file`, the flags.
package struct DescriptionLayer: Sendable, Hashable {
    package var json: JSONValue
    /// Whose the layer is, for `server show`: `preset NAME`, a document's address, a file's path, `given`.
    package var source: String
    /// Whose each top-level member is, where that differs from ``source``: a saved entry keeps its own.
    package var sources: [String: String] = [:]

    package init(json: JSONValue, source: String, sources: [String: String] = [:]) {
        self.json = json
        self.source = source
        self.sources = sources
    }

    /// A preset's layer: its name, which the description language reads as the preset's description.
    package static func preset(_ name: String) -> DescriptionLayer? {
        ServerPresets.named(name).map { _ in DescriptionLayer(json: ["preset": .string(name)], source: "preset \(name)")
        }
    }

    /// A saved entry's layer.
    package static func saved(_ entry: ServerEntry) -> DescriptionLayer {
        DescriptionLayer(
            json: entry.serverDescription.json(relativeTo: entry.server), source: "saved", sources: entry.sources)
    }

    var isEmpty: Bool { json == .object([:]) }

    /// The preset the layer names.
    var preset: String? {
        if case .string(let name)? = json[path: "preset"] { name } else { nil }
    }
}

/// How a login or `server set` finds out how to talk to its server: from what the person said, the registry's
/// saved entry, the presets and, where they do not say enough, what the server publishes.
///
/// Only decisions are here; the controller fetches the documents that ``Exploration`` names and hands back what
/// they said as a ``Discovery/Finding``.
package enum ServerPlan: Sendable, Hashable {
    /// This description, and where each part came from; nothing needs to be fetched.
    case ready(ServerDescription, sources: [String: String])
    /// Read what the server publishes, then send it to ``finish(_:found:server:)``.
    case explore(Exploration)

    /// The documents to read.
    package struct Exploration: Sendable, Hashable {
        /// The OAuth 2 metadata documents, all read: one names what another leaves out.
        package var metadata: [URL]
        /// The OpenAPI documents, read until one describes a login.
        package var openAPI: [URL]
        /// The layers the finding goes between: a preset's below it, the person's over it.
        package var below: [DescriptionLayer]
        package var over: [DescriptionLayer]
    }

    /// Decides how to describe `server`.
    ///
    /// `given` are what the person said, each over the one before (a `--server-file`, then the flags); `saved` is
    /// the registry's entry for the server. A saved entry is used as it is, under what is given, unless what is
    /// given names another preset. A preset, or what is given, that describes the server whole needs no document;
    /// one that does not is completed from the server's documents, and so is a server nothing describes.
    /// - Throws: `SwaggerError` with code `usage` for a description that cannot be read.
    package static func plan(given: [DescriptionLayer], saved: ServerEntry?, server: ServerURL)
        throws(SwaggerError) -> ServerPlan
    {
        let given = given.filter { !$0.isEmpty }
        let named = given.compactMap(\.preset).last
        if let saved, named == nil || named == saved.serverDescription.preset {
            return try ready([.saved(saved)] + given, server: server)
        }
        var below: [DescriptionLayer] = []
        if let named {
            guard let preset = DescriptionLayer.preset(named) else {
                throw SwaggerError(
                    .usage,
                    "There is no preset \(named); the presets are \(ServerPresets.names.joined(separator: ", ")).")
            }
            below = [preset]
        }
        let layers = below + given
        let document = given.compactMap { $0.json[path: "document"] }.last
        // What is given, or its preset, may say everything; then there is nothing to read. A document named with
        // --openapi is read all the same: it is what the person asked for. What is wrong, rather than missing, no
        // document can put right.
        if !layers.isEmpty, document == nil {
            do throws(SwaggerError) {
                return try ready(layers, server: server)
            } catch  where !isMissing(layers, server) {
                throw error
            } catch {}
        }
        if case .string(let text)? = document {
            return .explore(Exploration(metadata: [], openAPI: [try server.resolve(text)], below: below, over: given))
        }
        return .explore(
            Exploration(
                metadata: Discovery.metadataDocuments(for: server), openAPI: Discovery.openAPIDocuments(for: server),
                below: below, over: given))
    }

    /// The description once the documents were read: the finding between the preset and what was given; `nil`
    /// when nothing describes the server at all, which is never taken for any family.
    /// - Throws: `SwaggerError` with code `usage` when the description is still not whole: it names what is missing
    ///   and the flag that gives it.
    package static func finish(_ exploration: Exploration, found: Discovery.Finding?, server: ServerURL)
        throws(SwaggerError) -> (description: ServerDescription, sources: [String: String])?
    {
        var below = exploration.below
        // A finding that is a preset (the bundled API, an OAuth 2 server) lies on it, unless a preset was named.
        if below.isEmpty, let preset = found?.preset, let layer = DescriptionLayer.preset(preset) { below = [layer] }
        let layers = below + (found?.layer.map { [$0] } ?? []) + exploration.over
        // Flags that say nothing of the login (a client id, a scope), over a server that publishes nothing, describe
        // nothing: the server is as unknown as without them, and the flag that would give the login is not the fix.
        guard found != nil || !below.isEmpty || exploration.over.contains(where: { $0.json[path: "login"] != nil })
        else { return nil }
        // Where nothing the server publishes said what is missing, the message says how much was asked.
        let asked = found == nil ? exploration.metadata.count + exploration.openAPI.count : nil
        return try described(layers, server: server, asked: asked)
    }

    private static func ready(_ layers: [DescriptionLayer], server: ServerURL) throws(SwaggerError) -> ServerPlan {
        let (description, sources) = try described(layers, server: server)
        return .ready(description, sources: sources)
    }

    /// Whether the layers lack only what a document may give, rather than say something wrong.
    private static func isMissing(_ layers: [DescriptionLayer], _ server: ServerURL) -> Bool {
        do throws(ServerDescription.Invalid) {
            _ = try ServerDescription(layers: layers.map(\.json), under: server)
            return false
        } catch {
            return error.isMissing
        }
    }

    /// The description the layers make together, each over the one before. `asked` is how many of the server's
    /// documents were read, when they said nothing.
    private static func described(_ layers: [DescriptionLayer], server: ServerURL, asked: Int? = nil)
        throws(SwaggerError) -> (description: ServerDescription, sources: [String: String])
    {
        do throws(ServerDescription.Invalid) {
            let description = try ServerDescription(layers: layers.map(\.json), under: server)
            return (description, sources(of: description, in: layers))
        } catch {
            guard error.isMissing else {
                throw SwaggerError(.usage, "The description of \(server) cannot be used: \(error.reason).")
            }
            let unsaid = asked.map { ", and none of the \($0) documents the server was asked for says it" } ?? ""
            throw SwaggerError(
                .usage,
                "\(server) is not described enough to log in to: \(error.reason)\(unsaid)\(hint(error.reason, server))")
        }
    }

    /// Whose each top-level member of `json` is: the last layer that says where its step goes, else the last that
    /// set it at all. A flag that only names the login answer's token member leaves the login the document's.
    /// What a preset says is the preset's.
    private static func sources(of description: ServerDescription, in layers: [DescriptionLayer]) -> [String: String] {
        guard case .object(let members) = description.whole() else { return [:] }
        var sources: [String: String] = [:]
        for name in members.keys where name != "preset" {
            let layer =
                layers.last(where: {
                    $0.json[path: name + ".url"] != nil || $0.json[path: name + ".request.url"] != nil
                })
                ?? layers.last(where: { $0.json[path: name] != nil })
            if let layer {
                sources[name] = layer.sources[name] ?? layer.source
            } else if let preset = description.preset {
                sources[name] = "preset \(preset)"
            }
        }
        return sources
    }

    /// The flag that gives a missing part, for the end of the message.
    private static func hint(_ reason: String, _ server: ServerURL) -> String {
        let path = reason.prefix { $0 != " " }
        guard let flag = ServerFlags.flag(for: String(path)) else { return "." }
        return ". Give it with `swaggerctl server set \(server) \(flag) PATH`."
    }

    /// How a login signs in: as `flag` (`--web`, `--device`) says; else as the last login to the server did; else
    /// with the password, unless the server's metadata lists the grants it offers without the password grant. Then
    /// the browser where there is one (`hasBrowser`) and the person is at a terminal, and the device code where
    /// not, whichever the server offers; a password is never sent to a server that offers no password grant.
    package static func signIn(flag: SignIn?, description: ServerDescription, hasBrowser: Bool) -> SignIn {
        if let flag { return flag }
        if description.signIn != .password { return description.signIn }
        guard !description.offersPasswordGrant else { return .password }
        let offered = description.browserSignIns
        switch (offered.contains(.web), offered.contains(.device)) {
        case (true, true): return hasBrowser ? .web : .device
        case (true, false): return .web
        case (false, true): return .device
        case (false, false): return .password
        }
    }
}
