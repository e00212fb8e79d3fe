// IPC channel names shared by main and the sandboxed preload. No imports on purpose: a sandboxed
// preload can only require 'electron', so anything it bundles must stay free of node: modules.

/** Renderer → main: one channel for every command of the table. */
export const COMMAND_CHANNEL = 'shipdesk:command';
/** Main → renderer: push events of the core. */
export const EVENT_CHANNEL = 'shipdesk:event';
