-- POST mãos through the súmula API as referees at many tables: args after "--" are the tournament's slug,
-- a referee's session key, wrk's number of threads, then the keys of jogos to play. Each wrk thread takes its own share of the jogos
-- and gives their duplas one point in turn (0, 1, 0, 1…), so no partida reaches 11 within a run.
-- ZAP_LOAD_RUN (from load/run, one per scenario) goes into every mão's id, so that a scenario's mãos are new
-- ones and not retries of an earlier scenario's (a retry is answered without writing anything);
-- ZAP_MAO_PAUSE_MS: each referee waits that long after an answer before the next mão (0: none).
package.path = "load/?.lua;" .. package.path
local report = require("report")
local counter = 0
local TOKEN = "abcdefghijklmnopqrstuvwxyz012345"  -- a CSRF secret of Django's shape (32 letters and digits)

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end

local slug, mine, n = nil, {}, 0
local run = os.getenv("ZAP_LOAD_RUN") or tostring(os.time())
local pause = tonumber(os.getenv("ZAP_MAO_PAUSE_MS") or "0")

function delay()
  return pause
end

function init(args)
  slug = args[1]
  local threads = tonumber(args[3])
  for i = 4, #args do
    if (i - 4) % threads == index then mine[#mine + 1] = args[i] end
  end
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Cookie"] = "sessionid=" .. args[2] .. "; csrftoken=" .. TOKEN
  wrk.headers["X-CSRFToken"] = TOKEN
end

function request()
  n = n + 1
  local key = mine[((n - 1) % #mine) + 1]
  local turn = math.floor((n - 1) / #mine)
  local body = string.format('{"id": "carga-%s-%d-%d", "to": %d, "points": 1}', run, index, n, turn % 2)
  return wrk.format("POST", "/api/v1/torneios/" .. slug .. "/jogos/" .. key .. "/maos/", nil, body)
end

done = report.done
