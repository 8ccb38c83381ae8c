// leaderboard: points per month (leaderboard.sql counts them as orders complete) and the ranking snapshot.
export { leaderboardRoutes } from './leaderboard.routes.js'
export { recordLeaderboardZone } from './leaderboard.service.js'
export { createLeaderboardCache, type LeaderboardCache } from './leaderboard-snapshot.js'
export { profile, topTen } from './leaderboard.service.js'
