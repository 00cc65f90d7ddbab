# Runs as written against `make run` (the demo's accounts; tests/api/test_readme_walkthrough.py runs it in CI).
API=${API:-http://127.0.0.1:8000/api}; HOST=${API%/api}
J="Content-Type: application/json"
token() {  # a read-and-write token made with the account's password (or make one at /account/tokens/)
  curl -sf -H "$J" -d "{\"name\": \"walkthrough\", \"scope\": \"write\", \"username\": \"$1\", \"password\": \"$2\"}" \
    $API/tokens/ | jq -r .key
}
AUTH="Authorization: Token $(token organiser zarik-organiser)"   # organiser of the club «Зарик», slug zarik-club
# Create the event. Defaults that surprise: "public" is false (only its organisers see it — its own
# players get 404 — until released) and "seeding" is "draw" (the book's open draw: round 1 waits
# for POST …/draw/commit/ then …/draw/perform/). Unknown fields are refused (400, naming them).
curl -sf -H "$AUTH" -H "$J" -d '{"club": "zarik-club", "name": "Friday Swiss", "slug": "friday",
  "starts_on": "2026-05-01", "system": "swiss", "rounds_planned": 2, "match_length": 5,
  "public": true, "seeding": "registration"}' $API/tournaments/
# Enter players: a stored player by id ({"player": 17}), or a new one — "category" (1–9) is required
# for a new player. Here the demo's player1…player4 (demo-swiss draw numbers 1–4), who have accounts.
PLAYERS=$(curl -sf "$API/tournaments/demo-swiss/entries/?page_size=500" \
  | jq '[.results[] | select(.draw_number != null and .draw_number <= 4) | {player}]')
curl -sf -H "$AUTH" -H "$J" -d "$PLAYERS" $API/tournaments/friday/entries/
# Round 1, played by the players: pair it (a draft), publish it…
ROUND=$(curl -sf -H "$AUTH" -H "$J" -d '{}' $API/tournaments/friday/generate/ | jq .rounds[0].id)
curl -sf -H "$AUTH" -X POST $API/rounds/$ROUND/publish/
# …then each player finds their match at /api/me/matches/: its "result_state" has the pending
# report (id, score, who reported it) and the "actions" they may take, each with its href and body.
for n in 1 2 3 4; do
  PLAYER="Authorization: Token $(token player$n zarik-player)"
  MATCH=$(curl -sf -H "$PLAYER" $API/me/matches/ | jq '.results[] | select(.tournament == "friday")')
  CONFIRM=$(jq '.result_state.actions[] | select(.action == "confirm")' <<<"$MATCH")
  if [ -n "$CONFIRM" ]; then   # the opponent reported: confirm it (or "dispute" with a "reason")
    curl -sf -H "$PLAYER" -H "$J" -d "$(jq -c .body <<<"$CONFIRM")" "$HOST$(jq -r .href <<<"$CONFIRM")"
  else                         # the first of the two reports the final score, players a:b
    curl -sf -H "$PLAYER" -H "$J" -d "{\"final\": [5, 2], \"version\": $(jq .version <<<"$MATCH")}" \
      "$HOST$(jq -r .href <<<"$MATCH")report/"
  fi
done
# The round closes with its last confirmation. Round 2, entered by the organiser ("confirm": true):
ROUND=$(curl -sf -H "$AUTH" -H "$J" -d '{}' $API/tournaments/friday/generate/ | jq .rounds[0].id)
curl -sf -H "$AUTH" -X POST $API/rounds/$ROUND/publish/
for M in $(curl -sf -H "$AUTH" $API/rounds/$ROUND/ | jq -c '.pairings[] | {match, version}'); do
  curl -sf -H "$AUTH" -H "$J" -d "{\"final\": [2, 5], \"confirm\": true, \"version\": $(jq .version <<<"$M")}" \
    $API/matches/$(jq .match <<<"$M")/report/
done
curl -sf $API/tournaments/friday/standings/
