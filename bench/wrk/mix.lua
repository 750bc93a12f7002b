-- Rotates through a fixed request mix (written by bench/lib/mix-file.ts as a Lua file returning a
-- list of {method, path, headers, body}); its path is the script argument: wrk … -s mix.lua URL -- FILE
-- Requests are formatted once in init, so the per-request cost in wrk is a table lookup.
local formatted = {}
local n = 0

function init(args)
  local mix = dofile(args[1])
  for _, r in ipairs(mix) do
    formatted[#formatted + 1] = wrk.format(r.method, r.path, r.headers, r.body)
  end
  -- Threads other than the first start elsewhere in the list, so the mix is not sent in lockstep.
  n = (tonumber(args[2]) or 0) % #formatted
end

function request()
  n = n % #formatted + 1
  return formatted[n]
end

-- One machine-readable line, parsed by bench/lib/wrk.ts; latencies in microseconds.
function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%.0f,"p90":%.0f,"p99":%.0f,"p999":%.0f,"max":%.0f,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max, latency.mean))
end
