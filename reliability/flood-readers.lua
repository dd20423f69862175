-- wrk script of the reliability flood: visitors reading pages and API answers that are
-- all cached beforehand. The paths come from reliability/flood.ts (FLOOD_PATHS, space
-- separated), which warms exactly these; half the requests accept compression. Run
-- through harness/wrk-report.lua, which reports the figures.
local plain = {}
local gzip = { ["Accept-Encoding"] = "gzip, deflate, br" }

local paths = {}
for path in string.gmatch(os.getenv("FLOOD_PATHS") or "", "%S+") do paths[#paths + 1] = path end

local n = 0

request = function()
  n = n + 1
  return wrk.format("GET", paths[1 + n % #paths], (n % 2 == 0) and gzip or plain)
end

-- Readers pause between requests, so that they ask at a visitor's pace rather than as
-- fast as the server answers: a p99 taken at saturation measures queueing behind any
-- extra work, however cheap, not what the flood does to a visitor.
local pause = tonumber(os.getenv("FLOOD_READER_PAUSE_MS") or "0")
if pause > 0 then
  delay = function() return pause end
end
