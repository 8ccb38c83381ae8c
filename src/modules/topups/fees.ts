/**
 * What the payer adds to a top-up on a channel: the flat fee plus the percentage of the amount,
 * rounded up to the Rupiah (gateways round in their own favour). Integer arithmetic in thousandths
 * of a percent, so 10^15 × 100 % stays exact.
 */
export function channelFee(channel: { fee_flat: number; fee_percent: number }, amount: number): number {
  const thousandths = BigInt(Math.round(channel.fee_percent * 1000))
  const percentPart = (BigInt(amount) * thousandths + 99_999n) / 100_000n
  return channel.fee_flat + Number(percentPart)
}
