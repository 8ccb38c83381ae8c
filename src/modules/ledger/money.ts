/** docs/design.md §3: every price, amount, balance and line subtotal stays ≤ 10^15, exact in a double. */
export const MAX_MONEY = 10 ** 15
