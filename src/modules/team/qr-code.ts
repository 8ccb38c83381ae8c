import QRCode from 'qrcode'

/**
 * A QR code as inline SVG, drawn here: the enrolment secret it carries never goes to a third-party
 * image service, and the page needs no script. Medium error correction, the usual quiet zone.
 */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
}
