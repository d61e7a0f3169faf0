import Testing

@testable import SessionStorage

@Suite(
    "PlainSession: a plain Secret Service session only on a bus reached through Unix sockets", .timeLimit(.minutes(5)))
struct PlainSessionTests {
    @Test(
        "Unix-socket addresses may be plain; any TCP, nonce-TCP or launchd transport keeps libsecret's encryption",
        arguments: [
            ("unix:path=/run/user/1000/bus", true),
            ("unix:abstract=/tmp/dbus-Xy12,guid=5f0c", true),
            ("unix:path=/tmp/a;unix:path=/tmp/b", true),
            ("tcp:host=127.0.0.1,port=4000", false),
            ("nonce-tcp:host=localhost,port=4000,noncefile=/tmp/n", false),
            ("unix:path=/tmp/a;tcp:host=127.0.0.1,port=4000", false),
            ("autolaunch:", false),
        ])
    func transports(address: String, plain: Bool) {
        #expect(PlainSession.mayBePlain(address: address) == plain)
    }
}
