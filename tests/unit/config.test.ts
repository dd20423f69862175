import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, shownValue, withoutCredentials } from "../../server/config.ts";

describe("parseConfig", () => {
  it("gives the documented defaults for an empty environment", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      apiBaseUrl: undefined,
      databaseUrl: "sqlite:./data/portal.db",
      cache: { ttlMs: 30_000, ttlOverrides: [], staleMs: 600_000, maxBytes: 64 * 1024 * 1024 },
      upstreamTimeoutMs: 5000,
      reader: { dedupWindowMs: 600_000, ratePerMin: 30 },
      missRatePerMin: 600,
      redisDeadlineMs: 100,
      lang: "zh-CN",
      homeScript: true,
      logLevel: "info",
      webConcurrency: 1,
      pageCache: true,
      images: { hosts: [], maxSourceBytes: 20 * 1024 * 1024, cacheDir: "./data/images", cacheMaxBytes: 512 * 1024 * 1024, allowSvg: false },
      metrics: undefined,
      seedContent: "demo",
      search: { cacheKb: 2048 },
    });
    expect(parseConfig({ SEARCH_CACHE_MB: "16" }).search.cacheKb).toBe(16 * 1024);
  });

  it("opens the internal listener on loopback unless told otherwise", () => {
    expect(parseConfig({ METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(parseConfig({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" }).metrics).toEqual({ port: 9464, host: "10.0.0.5" });
    expect(parseConfig({ METRICS_HOST: "10.0.0.5" }).metrics).toBeUndefined();
  });

  it("reads every variable", () => {
    const config = parseConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      API_BASE_URL: "https://cms.example.com/backend/",
      DATABASE_URL: "postgres://u:p@db:5432/portal",
      CACHE_TTL_MS: "1000",
      CACHE_TTL_OVERRIDES: "/message/=10000, /sys/=300000",
      CACHE_STALE_MS: "0",
      CACHE_MAX_MB: "8",
      UPSTREAM_TIMEOUT_MS: "250",
      READER_DEDUP_WINDOW_MS: "1",
      PORTAL_CLASSIFY: '[{"menuId":2,"api":"/api/portal/product/product/list","path":"/product"}]',
      PORTAL_LANG: "en",
      PORTAL_HOME_SCRIPT: "off",
      READER_RATE_PER_MIN: "3",
      PUBLIC_ORIGIN: "https://www.example.com",
      TRUST_PROXY: "1",
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: "4",
      PAGE_CACHE: "off",
      MISS_RATE_PER_MIN: "0",
      IMAGE_HOSTS: "http://10.0.0.5:8080/, https://img.example.com",
      IMAGE_MAX_MB: "5",
      IMAGE_CACHE_DIR: "/var/cache/portal-images",
      IMAGE_CACHE_MB: "64",
      IMAGE_ALLOW_SVG: "on",
      REDIS_URL: "rediss://:pw@redis.internal:6380/2",
      REDIS_DEADLINE_MS: "250",
      SEED_CONTENT: "none",
    });
    expect(config.apiBaseUrl).toBe("https://cms.example.com/backend");
    expect(config.cache.ttlOverrides).toEqual([
      { prefix: "/message/", ttlMs: 10_000 },
      { prefix: "/sys/", ttlMs: 300_000 },
    ]);
    expect(config.classify).toEqual([{ menuId: 2, api: "/api/portal/product/product/list", path: "/product" }]);
    expect(config).toMatchObject({ port: 8080, lang: "en", homeScript: false, trustProxy: 1, publicOrigin: "https://www.example.com" });
    expect(config).toMatchObject({ webConcurrency: 4, pageCache: false, missRatePerMin: 0 });
    expect(config.images).toEqual({
      hosts: ["http://10.0.0.5:8080", "https://img.example.com"],
      maxSourceBytes: 5 * 1024 * 1024,
      cacheDir: "/var/cache/portal-images",
      cacheMaxBytes: 64 * 1024 * 1024,
      allowSvg: true,
    });
    expect(config).toMatchObject({ redisUrl: "rediss://:pw@redis.internal:6380/2", redisDeadlineMs: 250 });
    expect(config).toMatchObject({ webConcurrency: 4, pageCache: false, missRatePerMin: 0, seedContent: "none" });
  });

  it.each([
    ["PORT", "http", /^PORT must be a port number/],
    ["PORT", "70000", /^PORT must be a port number/],
    ["CACHE_TTL_MS", "-5", /^CACHE_TTL_MS must be a whole number of milliseconds/],
    ["CACHE_TTL_MS", "1.5", /^CACHE_TTL_MS must be/],
    ["CACHE_MAX_MB", "0", /^CACHE_MAX_MB must be a whole number of megabytes/],
    ["SEARCH_CACHE_MB", "0", /^SEARCH_CACHE_MB must be a whole number of megabytes from 1 to 1024/],
    ["CACHE_TTL_OVERRIDES", "/message/10000", /^CACHE_TTL_OVERRIDES must be path=milliseconds pairs/],
    ["API_BASE_URL", "ftp://x", /^API_BASE_URL must be an absolute http\(s\) URL/],
    ["PUBLIC_ORIGIN", "https://x.example/path", /^PUBLIC_ORIGIN must be an absolute http\(s\) origin/],
    ["DATABASE_URL", "mysql://x", /^DATABASE_URL must be sqlite:PATH or postgres:/],
    ["PORTAL_CLASSIFY", "[{menuId:1}]", /^PORTAL_CLASSIFY must be a JSON list/],
    ["PORTAL_LANG", "fr", /^PORTAL_LANG must be zh-CN or en/],
    ["PORTAL_HOME_SCRIPT", "yes", /^PORTAL_HOME_SCRIPT must be on or off/],
    ["TRUST_PROXY", "everyone", /^TRUST_PROXY must be a hop count/],
    [
      "TRUST_PROXY",
      "true",
      /^TRUST_PROXY must not be true .*: give a hop count \(such as 1\), loopback, or the proxies' addresses\/subnets/,
    ],
    ["TRUST_PROXY", " TRUE ", /^TRUST_PROXY must not be true/],
    ["TRUST_PROXY", "0.0.0.0/1,128.0.0.0/1,::/1,8000::/1", /^TRUST_PROXY must not trust every IPv4 address \(its subnets together cover/],
    ["TRUST_PROXY", "10.0.0.0/8,0.0.0.0/2,64.0.0.0/2,128.0.0.0/255.128.0.0,128.0.0.0/1", /^TRUST_PROXY must not trust every IPv4 address/],
    ["TRUST_PROXY", "::ffff:0:0/96", /^TRUST_PROXY must not trust every IPv4 address/],
    ["TRUST_PROXY", "loopback,::/1,8000::/2,c000::/2", /^TRUST_PROXY must not trust every IPv6 address/],
    ["TRUST_PROXY", "0.0.0.0/0", /^TRUST_PROXY must be a hop count .*\(invalid range on address: 0\.0\.0\.0\/0\)/],
    ["TRUST_PROXY", "10.0.0.0/255.0.255.0", /^TRUST_PROXY must be a hop count .*\(invalid range on address/],
    ["TRUST_PROXY", "0/1,2147483648/1", /^TRUST_PROXY must be a hop count .*\(not a plain IPv4 or IPv6 address: 0\/1\)/],
    ["TRUST_PROXY", "11", /^TRUST_PROXY must be a hop count from 0 to 10/],
    ["TRUST_PROXY", "99", /^TRUST_PROXY must be a hop count from 0 to 10/],
    ["LOG_LEVEL", "loud", /^LOG_LEVEL must be one of/],
    [
      "IMAGE_HOSTS",
      "https://img.example.com/path",
      /^IMAGE_HOSTS must be http\(s\) origins joined by commas.*bad part "https:\/\/img.example.com\/path"/,
    ],
    ["IMAGE_HOSTS", "img.example.com", /^IMAGE_HOSTS must be http\(s\) origins/],
    ["IMAGE_MAX_MB", "0", /^IMAGE_MAX_MB must be a whole number of megabytes from 1 to 1024/],
    ["IMAGE_CACHE_MB", "lots", /^IMAGE_CACHE_MB must be a whole number of megabytes/],
    ["IMAGE_ALLOW_SVG", "yes", /^IMAGE_ALLOW_SVG must be on or off/],
    ["WEB_CONCURRENCY", "0", /^WEB_CONCURRENCY must be a whole number of worker processes from 1 to 64/],
    ["WEB_CONCURRENCY", "65", /^WEB_CONCURRENCY must be a whole number of worker processes from 1 to 64/],
    ["WEB_CONCURRENCY", "auto", /^WEB_CONCURRENCY must be a whole number of worker processes/],
    ["PAGE_CACHE", "no", /^PAGE_CACHE must be on or off/],
    ["REDIS_DEADLINE_MS", "5", /^REDIS_DEADLINE_MS must be a whole number of milliseconds from 10 to 10000/],
    ["REDIS_DEADLINE_MS", "1s", /^REDIS_DEADLINE_MS must be a whole number of milliseconds/],
    ["MISS_RATE_PER_MIN", "-1", /^MISS_RATE_PER_MIN must be a whole number from 0 \(no limit\) to 1000000/],
    ["MISS_RATE_PER_MIN", "lots", /^MISS_RATE_PER_MIN must be a whole number/],
    ["MISS_RATE_PER_MIN", "1000001", /^MISS_RATE_PER_MIN must be a whole number/],
    ["PURGE_SECRET", "hunter2", /^PURGE_SECRET must be whsec_ followed by the base64 .* \(value not shown\)$/],
    ["PURGE_SECRET", "whsec_c2hvcnQ=", /^PURGE_SECRET must be whsec_/],
    ["PURGE_SECRET", `whsec_${"A".repeat(32)},whsec_not base64!`, /^PURGE_SECRET must be whsec_/],
    ["REDIS_URL", "localhost:6379", /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ["REDIS_URL", "http://redis.internal:6379", /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ["REDIS_URL", "redis://", /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ["METRICS_PORT", "metrics", /^METRICS_PORT must be a port number from 0 to 65535 \(got "metrics"\)$/],
    ["METRICS_PORT", "65536", /^METRICS_PORT must be a port number/],
    ["SEED_CONTENT", "empty", /^SEED_CONTENT must be demo or none/],
  ])("rejects %s=%s with one line naming the variable", (name, value, message) => {
    let error: unknown;
    try {
      parseConfig({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it.each([
    ["DATABASE_URL", "mysql://portal:s3cr3t-pw@db.internal/portal", "mysql://***@db.internal/portal"],
    ["DATABASE_URL", "postgres//portal:s3cr3t-pw@db.internal/portal", "postgres//***@db.internal/portal"],
    ["DATABASE_URL", `mysql://portal:${"x".repeat(70)}s3cr3t-pw@db/p`, "mysql://***@db/p"],
    ["DATABASE_URL", "mysql://portal:s3c@r3t-pw@db.internal/portal", "mysql://***@db.internal/portal"],
    ["API_BASE_URL", "https://admin:s3cr3t-pw@cms.example.com", "https://***@cms.example.com"],
    ["API_BASE_URL", "ftp://s3cr3t-pw@cms.example.com", "ftp://***@cms.example.com"],
    ["PUBLIC_ORIGIN", "https://u:s3cr3t-pw@www.example.com", "https://***@www.example.com"],
    ["REDIS_URL", "http://default:s3cr3t-pw@redis.internal:6379", "http://***@redis.internal:6379"],
    ["SMTP_URL", "smtpx://mailer:s3cr3t-pw@mail.example.com:465", "smtpx://***@mail.example.com:465"],
    ["ENQUIRY_WEBHOOK_URL", "ftp://hook:s3cr3t-pw@hooks.example.com", "ftp://***@hooks.example.com"],
  ])("never echoes the credentials of a rejected %s", (name, value, shown) => {
    expect(() => parseConfig({ [name]: value })).toThrow(
      new RegExp(`^${name} .*\\(got "${shown.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}"\\)$`),
    );
    expect(() => parseConfig({ [name]: value })).not.toThrow(/s3cr3t|r3t-pw|portal:|admin:|u:/);
  });

  it("never shows a URL's userinfo in other text, whatever the password holds or the scheme's form", () => {
    const said = withoutCredentials(
      'could not connect to "postgres://u:s3/cr#t?@x@db.internal/portal"; also redis:/user:s3cr3t@cache, tried s3cr3t:pw@host',
    );
    expect(said).toBe('could not connect to "postgres://***@db.internal/portal"; also redis:/***@cache, tried ***@host');
    expect(withoutCredentials("listening on 127.0.0.1:3000")).toBe("listening on 127.0.0.1:3000");
  });

  it("reads PURGE_SECRET as a list of secrets, each with its HMAC key decoded", () => {
    const first = `whsec_${Buffer.from("0123456789abcdef").toString("base64")}`;
    const second = `whsec_${Buffer.from("fedcba9876543210fedc").toString("base64")}`;
    const { purgeSecrets } = parseConfig({ PURGE_SECRET: ` ${first} , ${second}` });
    expect(purgeSecrets.map((s) => [s.text, s.key.toString()])).toEqual([
      [first, "0123456789abcdef"],
      [second, "fedcba9876543210fedc"],
    ]);
    expect(parseConfig({}).purgeSecrets).toEqual([]);
  });

  it("never shows the value of a variable named like a secret", () => {
    for (const name of ["SESSION_SECRET", "DB_PASSWORD", "API_TOKEN", "SIGNING_KEY", "api_key"]) {
      expect(shownValue(name, "s3cr3t-pw")).toBe(" (value not shown)");
    }
    expect(shownValue("PORT", "eighty")).toBe(' (got "eighty")');
  });

  it("reads TRUST_PROXY's forms as Express does: names, addresses, subnets and netmasks mixed, hop counts up to 10", () => {
    for (const value of ["loopback, 10.0.0.0/8, fd00::/8", "10.0.0.0/255.0.0.0,192.168.1.7", "::ffff:10.0.0.1", "0.0.0.0/1"]) {
      expect(parseConfig({ TRUST_PROXY: value }).trustProxy).toBe(value);
    }
    expect(parseConfig({ TRUST_PROXY: "10" }).trustProxy).toBe(10);
    expect(parseConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
  });

  it("treats an empty variable as unset", () => {
    expect(parseConfig({ PORT: "", API_BASE_URL: " " }).port).toBe(3000);
  });

  it("reads the enquiry settings, each channel only with what it needs", () => {
    const config = parseConfig({
      FORM_SECRET: "a-form-secret-long-enough",
      ENQUIRY_WEBHOOK_URL: "https://hooks.example.com/enquiry",
      ENQUIRY_WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 1).toString("base64")}`,
      SMTP_URL: "smtps://mailer:pw@mail.example.com:465",
      ENQUIRY_TO: "sales@example.com, support@example.com",
      ENQUIRY_FROM: "website@example.com",
    }).enquiries;
    expect(config).toMatchObject({ ratePerHour: 5, retentionDays: 180, formSecret: "a-form-secret-long-enough" });
    expect(config.webhook?.url).toBe("https://hooks.example.com/enquiry");
    expect(config.mail).toEqual({
      smtpUrl: "smtps://mailer:pw@mail.example.com:465",
      to: ["sales@example.com", "support@example.com"],
      from: "website@example.com",
    });
    expect(() => parseConfig({ ENQUIRY_WEBHOOK_URL: "https://hooks.example.com/x" })).toThrow(
      "ENQUIRY_WEBHOOK_URL needs ENQUIRY_WEBHOOK_SECRET as well",
    );
    expect(() => parseConfig({ SMTP_URL: "smtp://mail.example.com", ENQUIRY_FROM: "a@example.com" })).toThrow(
      "SMTP_URL needs ENQUIRY_TO as well",
    );
    expect(() => parseConfig({ ENQUIRY_TO: "sales@example.com\r\nBcc: x@example.com" })).toThrow(/^ENQUIRY_TO must be email addresses/);
    expect(() => parseConfig({ FORM_SECRET: "short" })).toThrow(
      "FORM_SECRET must be at least 16 characters of random text (value not shown)",
    );
  });

  it("reads WeChat's settings only as a whole, and never shows the AppSecret", () => {
    const whole = {
      PUBLIC_ORIGIN: "https://www.example.com",
      WECHAT_APP_ID: "wx0123456789abcdef",
      WECHAT_APP_SECRET: "0123456789abcdef0123456789abcdef",
    };
    expect(parseConfig({}).wechat).toBeUndefined();
    expect(parseConfig(whole).wechat).toEqual({
      appId: "wx0123456789abcdef",
      appSecret: "0123456789abcdef0123456789abcdef",
      apiBase: "https://api.weixin.qq.com",
    });
    expect(parseConfig({ ...whole, WECHAT_API_BASE: "http://127.0.0.1:9000/" }).wechat?.apiBase).toBe("http://127.0.0.1:9000");
    expect(() => parseConfig({ ...whole, WECHAT_APP_SECRET: "" })).toThrow("WECHAT_APP_ID needs WECHAT_APP_SECRET as well");
    expect(() => parseConfig({ ...whole, WECHAT_APP_ID: "" })).toThrow("WECHAT_APP_SECRET needs WECHAT_APP_ID as well");
    expect(() => parseConfig({ ...whole, PUBLIC_ORIGIN: "" })).toThrow("WECHAT_APP_ID needs PUBLIC_ORIGIN as well");
    expect(() => parseConfig({ ...whole, WECHAT_APP_ID: "gh_0123456789ab" })).toThrow(/^WECHAT_APP_ID must be an official account's AppID/);
    expect(() => parseConfig({ ...whole, WECHAT_APP_SECRET: "secret with spaces!" })).toThrow(
      "WECHAT_APP_SECRET must be the official account's AppSecret (letters and digits) (value not shown)",
    );
    expect(() => parseConfig({ ...whole, WECHAT_API_BASE: "api.weixin.qq.com" })).toThrow(
      /^WECHAT_API_BASE must be an absolute http\(s\) URL/,
    );
  });
});
