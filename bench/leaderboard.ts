/**
 * The leaderboard part of npm run bench: GET /v1/leaderboard/profile for random bench accounts at
 * 64 connections, first with the month as the purchases left it (≈ 100 accounts), then with
 * 100,000 more accounts in the month (inserted here in SQL), a busy month's size. A read is the
 * caller's own row by primary key plus a binary search in the process's snapshot of the month, so
 * its cost should not grow with the month or with the caller's rank; what does grow is the
 * snapshot's renewal (one index scan of the whole month, at most about once a second while reads
 * come), and that is inside the second figure. The added accounts hold 0–2,000 points, more than
 * the bench accounts' purchases earn, so every caller ranks near the end.
 */
import autocannon from 'autocannon'
import pg from 'pg'

export type LeaderboardBenchDeps = { base: string; databaseUrl: string; keys: string[]; seconds: number }

const MORE_ACCOUNTS = 100_000

async function profileLoad(deps: LeaderboardBenchDeps, path: string) {
  const result = await autocannon({
    url: deps.base,
    connections: 64,
    duration: deps.seconds,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (request: any) => ({ ...request, headers: { 'x-apikey': deps.keys[Math.floor(Math.random() * deps.keys.length)] } }),
      },
    ],
  })
  return {
    req_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }
}

/** 100,000 accounts with 0–2,000 points in the current month, as many as a busy month might hold. */
async function addAccounts(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    await db.query(`INSERT INTO accounts (name) SELECT 'bench leaderboard ' || g FROM generate_series(1, ${MORE_ACCOUNTS}) g`)
    await db.query(`INSERT INTO leaderboard_months (account_id, month, transactions, amount)
                    SELECT id, leaderboard_month(now()), 1 + (random() * 50)::int, (random() * 2e6)::bigint
                      FROM accounts WHERE name LIKE 'bench leaderboard %'`)
    await db.query('VACUUM ANALYZE leaderboard_months')
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM leaderboard_months WHERE month = leaderboard_month(now())`)
    return rows[0].n as number
  } finally {
    await db.end()
  }
}

export async function leaderboardBench(deps: LeaderboardBenchDeps) {
  console.log('leaderboard profile reads, 64 connections …')
  const profile = await profileLoad(deps, '/api/v1/leaderboard/profile')
  console.log(`leaderboard: adding ${MORE_ACCOUNTS} accounts to the month …`)
  const accountsInMonth = await addAccounts(deps.databaseUrl)
  console.log('leaderboard profile reads with them, 64 connections …')
  const profileLarge = await profileLoad(deps, '/api/v1/leaderboard/profile')
  const topTen = await profileLoad(deps, '/api/v1/leaderboard')
  return { profile, profile_large: { accounts_in_month: accountsInMonth, ...profileLarge }, top_ten_large: topTen }
}
