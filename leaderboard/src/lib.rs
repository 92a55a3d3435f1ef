//! The Ludus leaderboard: bot registry, schedules (round robin, gauntlet,
//! free-for-all tables), ratings and storage. It builds on `ludus-host`,
//! which plays single matches; nothing here yet.
