-- wrk script of the reliability load: a fixed mix of pages, API calls, feeds and reader
-- counts (mostly cache hits, as real traffic is), with about one request in 25 for a key
-- nobody asked for before (a cache miss that reaches the upstream), half the page requests
-- accepting compression. Run through harness/wrk-report.lua, which reports the figures.
local plain = {}
local gzip = { ["Accept-Encoding"] = "gzip, deflate, br" }

local fixed = {
  "/portal/index.html",
  "/portal/about/index.html",
  "/portal/about/member/index.html",
  "/portal/about/milepost/index.html",
  "/portal/message/news/list.html",
  "/portal/message/news/list.html?page=2",
  "/portal/message/notice/list.html",
  "/portal/job/society/index.html",
  "/portal/job/school/index.html?jobTypeIds=1",
  "/api/portal/sys/menu/list",
  "/api/portal/sys/syscfg",
  "/api/portal/message/news/list?pageIndex=0&pageMaxCount=10",
  "/api/portal/job/job/list?pageIndex=0&pageMaxCount=10&type=1",
  "/api/portal/plan/company",
  "/robots.txt",
  "/portal/message/news/rss.xml",
}

local n = 0
-- Answers carrying a cache's header, and those a cache served (HIT, or STALE while one
-- refresh runs): the mix's hit ratio, summed by harness/wrk-report.lua.
cache_hits = 0
cache_answers = 0

response = function(status, headers)
  local served = headers["X-Page-Cache"] or headers["x-page-cache"] or headers["X-Cache"] or headers["x-cache"]
  if served then
    cache_answers = cache_answers + 1
    if served == "HIT" or served == "STALE" then cache_hits = cache_hits + 1 end
  end
end

request = function()
  n = n + 1
  local pick = n % 25
  local headers = (n % 2 == 0) and gzip or plain
  if pick == 0 then
    -- A cache miss: a list page, or a job list API answer, nobody asked for before.
    local k = math.floor(n / 25)
    if k % 2 == 0 then
      return wrk.format("GET", string.format("/portal/message/news/list.html?page=%d&size=20", 2 + (k % 100000)), headers)
    end
    -- Jobs at one real address (so the answer is a real list) plus an address id no one has.
    return wrk.format("GET", string.format(
      "/api/portal/job/job/list?pageIndex=0&pageMaxCount=50&jobAddrIds=%d,%d", 1 + (k % 6), 1000 + k), headers)
  elseif pick <= 8 then
    return wrk.format("GET", "/portal/message/news/" .. (1 + n % 33), headers)
  elseif pick <= 10 then
    return wrk.format("GET", "/portal/product/" .. (1 + n % 8), headers)
  elseif pick == 11 then
    return wrk.format("GET", "/portal/job/society/" .. (1 + n % 34), headers)
  elseif pick == 12 then
    -- Reader counts are never cached: every one reaches the upstream.
    return wrk.format("GET", "/api/portal/reader/reader?type=2&pid=" .. (1 + n % 33), headers)
  end
  return wrk.format("GET", fixed[1 + n % #fixed], headers)
end
