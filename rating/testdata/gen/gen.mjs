// gen.mjs makes ../openskill.json, the golden vectors the Go package rating
// is checked against (rating_test.go), with the openskill npm package 5.0.1
// and its defaults: Plackett–Luce, mu 25, sigma 25/3, beta 25/6,
// kappa 0.0001, tau 25/300, limitSigma false, the default gamma.
//
// Run once, from this directory:
//
//	npm install && node gen.mjs > ../openskill.json
//
// The Go tests read the JSON only; they never need Node.
import { rating, rate, ordinal, predictWin } from 'openskill'

// mulberry32: a small seeded generator, so the random cases are the same
// on every run.
function mulberry32(a) {
  return function () {
    a |= 0
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const rnd = mulberry32(27)
const randRating = () => ({ mu: 10 + rnd() * 30, sigma: 0.5 + rnd() * 8 })

const d = () => rating()
const cases = []
function add(name, teams, rank) {
  const out = rank === undefined ? rate(teams) : rate(teams, { rank })
  cases.push({ name, teams, rank: rank ?? null, want: out, predict_win: predictWin(teams) })
}

add('1v1 default ranks', [[d()], [d()]])
add('1v1 second wins', [[d()], [d()]], [2, 1])
add('1v1 tie', [[d()], [d()]], [1, 1])
add('4 players distinct', [[d()], [d()], [d()], [d()]], [1, 2, 3, 4])
add('4 players shuffled ranks', [[d()], [d()], [d()], [d()]], [3, 1, 4, 2])
add('4 players tie for second', [[d()], [d()], [d()], [d()]], [1, 2, 2, 3])
add('5 players distinct', [[d()], [d()], [d()], [d()], [d()]], [2, 5, 1, 4, 3])
add('5 players ties', [[d()], [d()], [d()], [d()], [d()]], [1, 1, 3, 3, 3])
add('5 players all tie', [[d()], [d()], [d()], [d()], [d()]], [1, 1, 1, 1, 1])
add('2 teams of 2', [[d(), d()], [d(), d()]], [1, 2])
add('2 teams of 2, second wins', [[d(), d()], [d(), d()]], [2, 1])
add('2 teams of 2 tie', [[d(), d()], [d(), d()]], [1, 1])
add('teams of 1 and 2', [[d()], [d(), d()]], [1, 2])
add('teams of 2 and 1', [[d(), d()], [d()]], [1, 2])
add('4 players unequal', [[{ mu: 30, sigma: 2 }], [{ mu: 25, sigma: 8.333 }], [{ mu: 20, sigma: 1 }], [{ mu: 27, sigma: 4 }]], [4, 1, 2, 3])
add('2 teams of 2 unequal', [[{ mu: 32, sigma: 1.5 }, { mu: 18, sigma: 6 }], [{ mu: 25, sigma: 3 }, { mu: 26, sigma: 2.5 }]], [2, 1])
add('ranks not starting at 1', [[d()], [d()], [d()]], [10, 20, 20])

for (let i = 0; i < 60; i++) {
  const nTeams = 2 + Math.floor(rnd() * 6) // 2..7
  const size = 1 + Math.floor(rnd() * 2) // 1..2 (every team the same size, as at a table)
  const teams = []
  for (let t = 0; t < nTeams; t++) {
    const team = []
    for (let k = 0; k < size; k++) team.push(randRating())
    teams.push(team)
  }
  const rank = teams.map(() => 1 + Math.floor(rnd() * nTeams)) // ties likely
  add(`random ${i}`, teams, rank)
}

// A player's history: one rating carried through 30 four-player matches
// against fresh opponents, to check the updates compose.
let me = d()
const history = []
for (let i = 0; i < 30; i++) {
  const others = [randRating(), randRating(), randRating()]
  const place = Math.floor(rnd() * 4)
  const teams = [[me], [others[0]], [others[1]], [others[2]]]
  const rank = [place + 1, ...[0, 1, 2].map(() => 1 + Math.floor(rnd() * 4))]
  const out = rate(teams, { rank })
  history.push({ teams, rank, want: out })
  me = out[0][0]
}

const ordinals = [d(), { mu: 30, sigma: 2 }, { mu: 12.5, sigma: 0.75 }].map((r) => ({ rating: r, ordinal: ordinal(r) }))

// One case a line, so that a diff shows which case changed.
const lines = (xs) => '[\n' + xs.map((x) => JSON.stringify(x)).join(',\n') + '\n]'
process.stdout.write(
  `{"generator": "openskill 5.0.1",\n"cases": ${lines(cases)},\n"history": ${lines(history)},\n"ordinals": ${lines(ordinals)}\n}\n`,
)
