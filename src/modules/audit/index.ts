// audit: the append-only log of operator writes (docs/design.md §11d). audit.sql holds its triggers' function;
// the acting operator reaches them through db/acting.ts.
export {}
