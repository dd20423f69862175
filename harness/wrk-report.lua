-- wrk script: the requests of the script named by WRK_REQUESTS (wrk's default request
-- when unset), then, after the run, one machine-readable line with the figures
-- harness/wrk.ts reads. It loads the request script rather than being loaded by it so
-- that a request script is only about its requests. Latencies are in microseconds;
-- bytes counts everything read (headers and bodies).
local request_script = os.getenv("WRK_REQUESTS")
if request_script and request_script ~= "" then dofile(request_script) end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
