-- wrk script of the bench's crawler rows: 50 connections reading the pages and API
-- answers that visitors read again and again, accepting compression as browsers do, and
-- counting the answers a cache served (X-Page-Cache or X-Cache: HIT, or STALE while its
-- refresh runs) for the hot set's hit ratio.
local paths = {
  "/portal/index.html",
  "/portal/about/index.html",
  "/portal/about/member/index.html",
  "/portal/message/news/list.html",
  "/portal/message/notice/list.html",
  "/portal/job/society/index.html",
  "/portal/job/school/index.html",
  "/api/portal/sys/menu/list",
  "/api/portal/sys/syscfg",
  "/api/portal/message/news/list?pageIndex=0&pageMaxCount=10",
}
for id = 1, 12 do table.insert(paths, "/portal/message/news/" .. id) end
for id = 1, 4 do table.insert(paths, "/portal/product/" .. id) end

local headers = { ["Accept-Encoding"] = "gzip, deflate, br" }
local n = 0
cache_hits = 0
cache_answers = 0

request = function()
  n = n + 1
  return wrk.format("GET", paths[1 + n % #paths], headers)
end

response = function(status, response_headers)
  cache_answers = cache_answers + 1
  local served = response_headers["X-Page-Cache"] or response_headers["x-page-cache"]
    or response_headers["X-Cache"] or response_headers["x-cache"]
  if served == "HIT" or served == "STALE" then cache_hits = cache_hits + 1 end
end
