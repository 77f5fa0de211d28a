/**
 * A WebSocket stand-in for chat tests: records what is sent and lets a test open, drop and feed the
 * connection. `FakeSocket.wrap` runs each event (React tests set it to `act`).
 */
export class FakeSocket {
  static all: FakeSocket[] = [];
  static wrap: (event: () => void) => void = (event) => event();
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(public url = '') { FakeSocket.all.push(this); }
  send(data: string) { this.sent.push(data); }
  close() { this.readyState = 3; }
  open() { FakeSocket.wrap(() => { this.readyState = 1; this.onopen?.({}); }); }
  drop(code = 1006) { FakeSocket.wrap(() => { this.readyState = 3; this.onclose?.({ code }); }); }
  receive(event: unknown) { FakeSocket.wrap(() => { this.onmessage?.({ data: JSON.stringify(event) }); }); }
}
