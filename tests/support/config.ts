import { type Config, parseConfig } from "../../server/config.ts";

/** A config as the server would parse it, quiet, with the given variables set. */
export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ LOG_LEVEL: "silent", ...env });
}
