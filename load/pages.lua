-- GET the paths given after "--", one at random per request (spectators' phones on event day).
package.path = "load/?.lua;" .. package.path
local report = require("report")
local paths = {}

function init(args)
  for _, path in ipairs(args) do paths[#paths + 1] = path end
  math.randomseed(os.time() + #paths)
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end

done = report.done
