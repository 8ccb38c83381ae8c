// console: the operator console at /console (sign-in, pages, Eta views), over the modules' use cases.
export { consolePlugin } from './console.plugin.js'
