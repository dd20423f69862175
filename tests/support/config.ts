import { type Config, parseConfig } from "../../server/config.ts";

/**
 * Redis may answer a loaded test machine later than production's deadline allows; the tests that share
 * through it check the sharing, and the outage suite sets its own deadline to check the deadline.
 */
export const TEST_REDIS_DEADLINE_MS = 1000;

/** A config as the server would parse it, quiet, with the given variables set. */
export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ LOG_LEVEL: "silent", REDIS_DEADLINE_MS: String(TEST_REDIS_DEADLINE_MS), ...env });
}
