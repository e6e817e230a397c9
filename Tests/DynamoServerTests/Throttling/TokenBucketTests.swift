import Testing
@testable import DynamoServer

/// The token bucket behind `--throttle`: refill at the rate, a burst of at most 300 seconds,
/// admission while above zero, debt for large items, rate changes from now on.
struct TokenBucketTests {
    @Test func refillsAtTheRateUpToTheBurst() {
        var bucket = TokenBucket(rate: 10, burstSeconds: 300, now: 0)
        #expect(bucket.balance == 3000)
        bucket.spend(3000)
        #expect(!bucket.admits)
        bucket.refill(rate: 10, burstSeconds: 300, now: 1)
        #expect(bucket.balance == 10 && bucket.admits)
        bucket.refill(rate: 10, burstSeconds: 300, now: 10_000)
        #expect(bucket.balance == 3000)
    }

    @Test func largeItemsLeaveDebtThatTimePaysBack() {
        var bucket = TokenBucket(rate: 5, burstSeconds: 300, now: 0)
        bucket.spend(1499)
        #expect(bucket.admits)
        bucket.spend(100)
        #expect(bucket.balance == -99 && !bucket.admits)
        bucket.refill(rate: 5, burstSeconds: 300, now: 20)
        #expect(bucket.balance == 1 && bucket.admits)
    }

    @Test func rateChangesApplyFromNow() {
        var bucket = TokenBucket(rate: 1, burstSeconds: 300, now: 0)
        bucket.spend(300)
        bucket.refill(rate: 1, burstSeconds: 300, now: 10)
        #expect(bucket.balance == 10)
        bucket.refill(rate: 100, burstSeconds: 300, now: 11)
        #expect(bucket.balance == 110)
        bucket.refill(rate: 0.1, burstSeconds: 300, now: 11) // lowered: trimmed to the new burst
        #expect(abs(bucket.balance - 30) < 1e-9)
        bucket.refill(rate: 0.1, burstSeconds: 300, now: 5) // a clock reading from the past changes nothing
        #expect(abs(bucket.balance - 30) < 1e-9)
    }
}
