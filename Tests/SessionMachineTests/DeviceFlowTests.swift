import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

@Suite("DeviceFlow: when a device-code login polls, and what each answer means", .timeLimit(.minutes(5)))
struct DeviceFlowTests {
    static let authorization = DeviceAuthorization(
        deviceCode: "d", userCode: "WDJB-MJHT", verificationURI: URL(filePath: "/device"), interval: .seconds(5),
        expiresIn: .seconds(60))
    static let description = Fixtures.described([
        "preset": "oauth2", "login": ["url": "https://idp/token"], "profile": ["url": "https://idp/userinfo"],
    ])

    static func wait(_ next: DeviceFlow.Next) -> Duration? {
        if case .poll(let wait) = next { wait } else { nil }
    }

    @Test("the first poll waits the server's interval; a pending answer keeps it; slow_down adds 5 s for good")
    func pacing() {
        var flow = DeviceFlow(Self.authorization, server: Fixtures.server, description: Self.description)
        #expect(Self.wait(flow.started()) == .seconds(5))
        #expect(Self.wait(flow.answered(.pending, elapsed: .seconds(5))) == .seconds(5))
        #expect(Self.wait(flow.answered(.slowDown, elapsed: .seconds(10))) == .seconds(10))
        #expect(Self.wait(flow.answered(.pending, elapsed: .seconds(20))) == .seconds(10))
        #expect(Self.wait(flow.answered(.slowDown, elapsed: .seconds(30))) == .seconds(15))
    }

    @Test(
        "a server's interval is bounded by 60 s and by the code's lifetime, and slow_down never passes 60 s",
        arguments: [
            (Int64(9_223_372_037), Int64(600), Int64(60)), (1_000_000_000, 600, 60), (120, 30, 30), (7, 600, 7),
        ])
    func boundedInterval(interval: Int64, expiresIn: Int64, first: Int64) {
        let authorization = DeviceAuthorization(
            deviceCode: "d", userCode: "u", verificationURI: URL(filePath: "/"), interval: .seconds(interval),
            expiresIn: .seconds(expiresIn))
        var flow = DeviceFlow(authorization, server: Fixtures.server, description: Self.description)
        #expect(Self.wait(flow.started()) == .seconds(first))
        if first == 60 { #expect(Self.wait(flow.answered(.slowDown, elapsed: .seconds(60))) == .seconds(60)) }
    }

    @Test("an interval the server did not name is 5 seconds")
    func defaultInterval() {
        let authorization = DeviceAuthorization(
            deviceCode: "d", userCode: "u", verificationURI: URL(filePath: "/"), interval: nil, expiresIn: .seconds(9))
        #expect(
            Self.wait(DeviceFlow(authorization, server: Fixtures.server, description: Self.description).started())
                == .seconds(5))
    }

    @Test("the tokens end the flow; a refusal and an expired code end it with exit-4 failures")
    func endings() {
        var granted = DeviceFlow(Self.authorization, server: Fixtures.server, description: Self.description)
        let grant = TokenGrant(accessToken: "a")
        guard case .granted(let got) = granted.answered(.granted(grant), elapsed: .seconds(5)) else {
            Issue.record("not granted")
            return
        }
        #expect(got == grant)
        for (answer, ending) in [(DevicePoll.denied, SessionFailure.DeviceEnding.denied), (.expired, .expired)] {
            var flow = DeviceFlow(Self.authorization, server: Fixtures.server, description: Self.description)
            guard case .fail(let failure) = flow.answered(answer, elapsed: .seconds(5)) else {
                Issue.record("\(answer) did not end the flow")
                continue
            }
            #expect(failure == .deviceLoginEnded(server: Fixtures.server, ending))
        }
    }

    @Test("no poll is made after the code expires: the flow ends as expired without asking again")
    func deadline() {
        var flow = DeviceFlow(Self.authorization, server: Fixtures.server, description: Self.description)
        #expect(Self.wait(flow.answered(.pending, elapsed: .seconds(55))) == .seconds(5))
        guard case .fail(let failure) = flow.answered(.pending, elapsed: .seconds(56)) else {
            Issue.record("polled past the code's lifetime")
            return
        }
        #expect(failure == .deviceLoginEnded(server: Fixtures.server, .expired))
    }

    @Test("any other error ends the flow as a failed request")
    func otherError() {
        var flow = DeviceFlow(Self.authorization, server: Fixtures.server, description: Self.description)
        #expect(
            flow.pollFailed(.serverFailed(status: 500))
                == .requestFailed(
                    .serverFailed(status: 500), server: Fixtures.server, account: nil, description: Self.description))
    }
}
