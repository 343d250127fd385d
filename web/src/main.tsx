// The web client's entry: one store, one connection to this server's /ws, the page.
import { render } from "preact";
import { Connection, type SocketLike } from "./connection";
import { Controller } from "./controller";
import { initialState, screenFromHash, Store } from "./store";
import { App } from "./ui/app";

// The sound setting is kept in the browser (ui/app.tsx writes it).
const store = new Store({ ...initialState(screenFromHash(location.hash)), sound: localStorage.getItem("felt.sound") === "on" });
const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
const tokens = {
  get: () => localStorage.getItem("felt.token"),
  set: (t: string | null) => (t ? localStorage.setItem("felt.token", t) : localStorage.removeItem("felt.token")),
};
const controller = new Controller(store, (events) => new Connection(url, events, tokens, (u) => new WebSocket(u) as unknown as SocketLike));
addEventListener("hashchange", () => controller.go(screenFromHash(location.hash)));
controller.conn.start();
render(<App c={controller} />, document.getElementById("app")!);
