-- wrk script: the requests of the script named by WRK_REQUESTS (wrk's default request
-- when unset), then, after the run, one machine-readable line with the figures
-- harness/wrk.ts reads. It loads the request script rather than being loaded by it so
-- that a request script is only about its requests. Latencies are in microseconds;
-- bytes counts everything read (headers and bodies). A request script that keeps
-- `cache_hits` and `cache_answers` (in its `response` function) has them summed over the
-- threads into the line too: wrk's `done` runs apart from the threads, so it reads them
-- through the thread handles kept at setup.
local request_script = os.getenv("WRK_REQUESTS")
if request_script and request_script ~= "" then dofile(request_script) end

local threads = {}
local own_setup = setup
setup = function(thread)
  table.insert(threads, thread)
  if own_setup then own_setup(thread) end
end

done = function(summary, latency, requests)
  local e = summary.errors
  local hits, answers = 0, 0
  for _, thread in ipairs(threads) do
    hits = hits + (thread:get("cache_hits") or 0)
    answers = answers + (thread:get("cache_answers") or 0)
  end
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,' ..
    '"cacheHits":%d,"cacheAnswers":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(99), latency.max,
    hits, answers,
    e.connect, e.read, e.write, e.status, e.timeout))
end
