import crypto from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'

/**
 * Router failures before any route runs: a path that does not percent-decode, or a path
 * parameter longer than the router takes. Neither names anything the service has, so both are
 * 404 NOT_FOUND, like any unknown path; the path is never echoed back.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const pathError = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH'
  // The only other one is a failing async route constraint, which this service does not use.
  if (!pathError) request.log.error({ err: error }, 'router failed')
  const appError = new AppError(pathError ? 'NOT_FOUND' : 'INTERNAL_ERROR')
  return reply.status(appError.status).send({ message: appError.code })
}

const UNREADABLE_REQUEST = {
  request: [
    'could not be parsed as HTTP/1.1: check the method, the header lines (CRLF endings) and Content-Length or Transfer-Encoding (one, not both)',
  ],
}

/**
 * A request Node's HTTP parser refuses (an unknown method, a broken header, a bad Content-Length)
 * never reaches Fastify: answer it in the house shape on the raw socket, then close the connection.
 * The parser never reads JSON, so none of these is INVALID_JSON.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  // The client went away, or the answer was already written: nothing to say.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const appError = new AppError(tooLarge ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST')
  const body = JSON.stringify(tooLarge ? { message: appError.code } : { message: appError.code, errors: UNREADABLE_REQUEST })
  // A client too slow to send its request gets the connection closed, not an answer.
  if (socket.writable && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
    // Like every answer it names itself; the request could not be read, so the id is always new.
    const head = [
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${crypto.randomUUID()}`,
      'Connection: close',
    ]
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`)
  }
  socket.destroy()
}
