// The one module that speaks to feltd: hello, requests with ids and their replies, signing in and
// resuming with the kept token, reconnecting with backoff. Screens never touch the socket; they
// call request() and read the store, which this module feeds through its events.
import type {
  Account,
  Balance,
  ErrorFrame,
  LobbyChanged,
  LobbyClosed,
  Reply,
  Request,
  ServerFrame,
  SignedOut,
  TableMessage,
  TournamentPush,
} from "./gen/protocol";

export const kProtocolVersion = 2;

export type RequestType = Request["type"];
export type RequestOf<T extends RequestType> = Extract<Request, { type: T }>;
export type ReplyOf<T extends RequestType> = Extract<Reply, { type: T }>;
export type Body<T extends RequestType> = Omit<RequestOf<T>, "type" | "id">;
export type Push = TableMessage | LobbyChanged | LobbyClosed | SignedOut | Balance | TournamentPush;
export type Elsewhere = NonNullable<ReplyOf<"resume">["elsewhere"]>;

export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly url?: string, // moved: the node that hosts the table
  ) {
    super(message);
  }
}

// What the connection needs of a WebSocket (a test passes a fake).
export interface SocketLike {
  send(text: string): void;
  close(): void;
  onopen: (() => void) | null;
  onclose: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
}

export interface TokenStore {
  get(): string | null;
  set(token: string | null): void;
}

export type Status = "connecting" | "online" | "reconnecting";

export interface ConnectionEvents {
  status(status: Status, attempt: number): void;
  // `elsewhere`: seats the account holds at other nodes' tables (several nodes), from the reply.
  signedIn(account: Account, resumed: boolean, elsewhere?: Elsewhere): void;
  signedOut(reason: string): void;
  push(message: Push): void;
  // The connection leaves for another node (moved): what it watched on this one is no longer told.
  moved?(url: string): void;
}

// Reconnection delays: 0.5 s doubling to 10 s, each with up to half of it taken off at random so
// that clients dropped together do not come back together.
export function backoff(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(10_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(full * (1 - 0.5 * random()));
}

interface Pending {
  resolve(reply: Reply): void;
  reject(error: RequestError): void;
}

export class Connection {
  private socket: SocketLike | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private online = false;
  private stopped = false;
  private moving = false; // closing to connect to another node at once
  private readonly whenOnline: (() => void)[] = [];

  constructor(
    private url: string,
    private readonly events: ConnectionEvents,
    private readonly tokens: TokenStore,
    private readonly open: (url: string) => SocketLike,
    private readonly delay: (attempt: number) => number = backoff,
    // A socket that opens but never completes the handshake (a server that accepts and then
    // says nothing) is closed after this long, and tried again after the backoff.
    private readonly handshakeMs = 10_000,
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
  }

  isOnline(): boolean {
    return this.online;
  }

  // A request and its reply; a refusal rejects with the server's code, message and field. A
  // table on another node (several nodes on one database) answers moved: the connection goes to
  // that node, resumes there with the kept token, and asks once more.
  async request<T extends RequestType>(type: T, body: Body<T>): Promise<ReplyOf<T>> {
    try {
      return (await this.send(type, body as Record<string, unknown>, false)) as ReplyOf<T>;
    } catch (e) {
      if (!(e instanceof RequestError) || e.code !== "moved" || !e.url) throw e;
      await this.moveTo(e.url);
      return (await this.send(type, body as Record<string, unknown>, false)) as ReplyOf<T>;
    }
  }

  // The node clients are connected to now.
  where(): string {
    return this.url;
  }

  // Connects to the node at `url` at once, leaving this one (its seats are held as for a lost
  // connection); resolves once signed in there again.
  moveTo(url: string): Promise<void> {
    const online = new Promise<void>((resolve) => this.whenOnline.push(resolve));
    this.url = url;
    this.moving = true;
    this.events.moved?.(url);
    if (this.socket) this.socket.close();
    else this.connect();
    return online;
  }

  // Signing in: the token of the reply is kept for resuming.
  async signIn(
    how: "guest" | "login" | "register",
    body: { name?: string; password?: string } = {},
  ): Promise<Account> {
    const reply = (await this.send(how, body, false)) as ReplyOf<"login">;
    this.tokens.set(reply.token);
    this.events.signedIn(reply.account, false, reply.elsewhere);
    return reply.account;
  }

  async signOut(everywhere = false): Promise<void> {
    await this.request("logout", { everywhere });
    this.tokens.set(null);
    this.events.signedOut("logout");
  }

  private send(type: string, body: Record<string, unknown>, handshake: boolean): Promise<Reply> {
    if (!this.socket || (!this.online && !handshake))
      return Promise.reject(new RequestError("offline", "not connected to the server"));
    const id = this.nextId++;
    const socket = this.socket;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ ...body, type, id }));
    });
  }

  private connect(): void {
    this.online = false;
    this.events.status(this.attempt === 0 ? "connecting" : "reconnecting", this.attempt);
    const socket = this.open(this.url);
    this.socket = socket;
    socket.onmessage = (e) => this.receive(e.data);
    socket.onclose = () => this.closed(socket);
    socket.onopen = () => void this.handshake(socket);
  }

  private async handshake(socket: SocketLike): Promise<void> {
    const stalled = setTimeout(() => {
      if (socket === this.socket && !this.online) socket.close();
    }, this.handshakeMs);
    try {
      await this.send("hello", { version: kProtocolVersion }, true);
      const token = this.tokens.get();
      let account: Account | null = null;
      let elsewhere: Elsewhere | undefined;
      if (token) {
        try {
          const reply = (await this.send("resume", { token }, true)) as ReplyOf<"resume">;
          account = reply.account;
          elsewhere = reply.elsewhere;
        } catch (e) {
          if (!(e instanceof RequestError) || e.code !== "unauthorized") throw e;
          this.tokens.set(null); // expired or revoked: sign in again
        }
      }
      if (socket !== this.socket) return;
      this.online = true;
      this.attempt = 0;
      this.events.status("online", 0);
      if (account) this.events.signedIn(account, true, elsewhere);
      else this.events.signedOut(token ? "expired" : "none");
      for (const resolve of this.whenOnline.splice(0)) resolve();
    } catch {
      socket.close(); // tried again after the backoff
    } finally {
      clearTimeout(stalled);
    }
  }

  private receive(data: unknown): void {
    if (typeof data !== "string") return;
    let frame: ServerFrame;
    try {
      frame = JSON.parse(data) as ServerFrame;
    } catch {
      return;
    }
    if (frame.type === "table" || frame.type === "lobby" || frame.type === "balance") return this.events.push(frame);
    // A tournament's news (no id; a reply to `tournament` has one).
    if (frame.type === "tournament" && !("id" in frame)) return this.events.push(frame as TournamentPush);
    if (frame.type === "signed_out") {
      this.tokens.set(null);
      this.events.signedOut(frame.reason);
      return this.events.push(frame);
    }
    const id = typeof frame.id === "number" ? frame.id : null;
    const waiting = id === null ? undefined : this.pending.get(id);
    if (!waiting) return; // an error for no request of ours (a malformed frame): nothing waits
    this.pending.delete(id!);
    if (frame.type === "error") {
      const e = frame as ErrorFrame;
      waiting.reject(new RequestError(e.code, e.message, e.field, e.url));
    } else {
      waiting.resolve(frame as Reply);
    }
  }

  private closed(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.online = false;
    this.socket = null;
    for (const p of this.pending.values())
      p.reject(new RequestError("disconnected", "the connection to the server was lost"));
    this.pending.clear();
    if (this.stopped) return;
    if (this.moving) {
      this.moving = false;
      this.attempt = 0;
      return this.connect();
    }
    this.attempt += 1;
    this.events.status("reconnecting", this.attempt);
    this.timer = setTimeout(() => this.connect(), this.delay(this.attempt - 1));
  }
}
