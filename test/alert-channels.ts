import Fastify from 'fastify'
import type net from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll } from 'vitest'

// Local stand-ins for the alert channels' far ends, speaking their real protocols (tests only).

export type Mail = { from: string; to: string[]; subject: string; raw: string }

/** An SMTP sink on 127.0.0.1: takes any login and keeps every message. */
export async function startSmtpSink() {
  const mails: Mail[] = []
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, done) => done(null, { user: auth.username }),
    onData(stream, session, done) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          // Long headers arrive folded over lines (RFC 5322): unfolded before reading the subject.
          subject: /^Subject: (.*)$/m.exec(raw.replace(/\r?\n(?=[ \t])/g, ''))?.[1]?.trim() ?? '',
          raw,
        })
        done()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as net.AddressInfo).port
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `smtp://alerts:secret@127.0.0.1:${port}`, mails }
}

export type TelegramMessage = { token: string; chat_id: string; text: string }

/** Telegram's Bot API sendMessage on 127.0.0.1; `failWith` makes it refuse (as for an unknown chat) until cleared. */
export async function startFakeTelegram() {
  const sent: TelegramMessage[] = []
  const state: { failWith: string | null } = { failWith: null }
  const app = Fastify({ forceCloseConnections: true })
  app.post<{ Params: { token: string }; Body: { chat_id: string; text: string } }>('/bot:token/sendMessage', async (req, reply) => {
    if (state.failWith) return reply.code(400).send({ ok: false, error_code: 400, description: state.failWith })
    sent.push({ token: req.params.token, chat_id: String(req.body.chat_id), text: req.body.text })
    return { ok: true, result: { message_id: sent.length } }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  afterAll(() => app.close())
  return { url: `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`, sent, state }
}
