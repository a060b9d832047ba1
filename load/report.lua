-- What every load script prints when wrk ends: one RESULT line that load/run reads.
local M = {}

function M.done(summary, latency, requests)
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "RESULT requests=%d rps=%.1f p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d\n",
    summary.requests, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end

return M
