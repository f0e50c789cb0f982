export * from './definition.js'
export * from './envelope.js'
export * from './exporters.js'
export * from './schemas.js'
