// A scripted ACP agent served by the official TypeScript SDK's server
// transport (AcpServer over Node's http module: Streamable HTTP with SSE,
// and WebSocket through the ws package), for scripts/e2e-remote.sh.
//
//   node sdk-agent.mjs [--no-ws]     prints "listening http://127.0.0.1:PORT/acp"
//
// SDK_AGENT_TOKEN, when set, is the bearer token every request must carry;
// SDK_AGENT_PORT the port to listen on (default: any free one).
// GET /control/drop ends every connection at once (a server restart, as
// far as the client can tell); the sessions outlive it and can be resumed.
// GET /control/count says how many requests /acp was sent.
//
// Prompts: "form", "url", "flood N", "ask" (a form kept across a drop:
// asked again when its session is resumed or loaded); anything else is
// answered "hello from the SDK agent".
import http from "node:http";
import { WebSocketServer } from "ws";
import * as acp from "@agentclientprotocol/sdk";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";

const noWS = process.argv.includes("--no-ws");
const token = process.env.SDK_AGENT_TOKEN || "";

// Sessions outlive connections.
const sessions = new Map();

const nameForm = {
	type: "object",
	properties: {
		name: { type: "string", title: "Your name", minLength: 1 },
		color: { type: "string", title: "Favourite colour", enum: ["red", "green", "blue"] },
	},
	required: ["name"],
};

function say(client, sessionId, text) {
	return client.notify("session/update", {
		sessionId,
		update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
	});
}

// ask sends the session's kept form and says what came back; a form whose
// connection went away stays kept for the next connection.
async function ask(client, sessionId) {
	const s = sessions.get(sessionId);
	try {
		const r = await client.request("elicitation/create", s.pending);
		s.pending = null;
		await say(client, sessionId, `kept form: ${r.action} ${JSON.stringify(r.content ?? {})}`);
	} catch (e) {
		// The connection is gone: the form waits for the session's next one.
	}
}

function reattach(params, client) {
	const s = sessions.get(params.sessionId);
	if (!s) {
		throw acp.RequestError.resourceNotFound(params.sessionId);
	}
	if (s.pending) {
		setTimeout(() => void ask(client, params.sessionId), 200);
	}
	return {};
}

function createAgent() {
	return acp
		.agent({ name: "sdk-scripted" })
		.onRequest("initialize", () => ({
			protocolVersion: 1,
			agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } },
			agentInfo: { name: "sdk-scripted", title: "SDK agent", version: "1" },
			authMethods: [],
		}))
		.onRequest("session/new", () => {
			const id = `sdk-${sessions.size + 1}`;
			sessions.set(id, { pending: null });
			return { sessionId: id };
		})
		.onRequest("session/resume", ({ params, client }) => reattach(params, client))
		.onRequest("session/load", ({ params, client }) => reattach(params, client))
		.onNotification("session/cancel", () => {})
		.onRequest("session/prompt", async ({ params, client }) => {
			const sid = params.sessionId;
			const text = params.prompt.map((b) => b.text ?? "").join("").trim();
			if (text === "form") {
				const r = await client.request("elicitation/create", { sessionId: sid, mode: "form", message: "Who is asking?", requestedSchema: nameForm });
				await say(client, sid, `form: ${r.action} ${JSON.stringify(r.content ?? {})}`);
			} else if (text === "url") {
				const r = await client.request("elicitation/create", {
					sessionId: sid, mode: "url", message: "Sign in to the example service",
					elicitationId: "sdk-e1", url: "https://example.com/sign-in?state=abc",
				});
				await say(client, sid, `url: ${r.action}`);
				if (r.action === "accept") {
					await client.notify("elicitation/complete", { elicitationId: "sdk-e1" });
				}
			} else if (text.startsWith("flood")) {
				const n = Number(text.split(/\s+/)[1] || 1000);
				for (let i = 0; i < n; i++) {
					await client.notify("session/update", {
						sessionId: sid,
						update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "w " } },
					});
				}
				await say(client, sid, `flood of ${n} done`);
			} else if (text === "ask") {
				sessions.get(sid).pending = { sessionId: sid, mode: "form", message: "Kept across a drop", requestedSchema: nameForm };
				await ask(client, sid);
			} else {
				await say(client, sid, "hello from the SDK agent");
			}
			return { stopReason: "end_turn" };
		});
}

const server = new AcpServer({ createAgent });
const acpHandler = createNodeHttpHandler(server);

let acpRequests = 0;

function authorized(req) {
	return !token || req.headers.authorization === `Bearer ${token}`;
}

const httpServer = http.createServer((req, res) => {
	const path = new URL(req.url, "http://x").pathname;
	if (path === "/control/drop") {
		void server.close().then(() => res.end("dropped\n"));
		return;
	}
	if (path === "/control/count") {
		res.end(`${acpRequests}\n`);
		return;
	}
	if (path !== "/acp") {
		res.statusCode = 404;
		res.end("not found\n");
		return;
	}
	acpRequests++;
	if (!authorized(req)) {
		res.statusCode = 401;
		res.end("invalid bearer token\n");
		return;
	}
	acpHandler(req, res);
});

if (!noWS) {
	const wss = new WebSocketServer({ noServer: true });
	const upgrade = createNodeWebSocketUpgradeHandler(server, wss);
	httpServer.on("upgrade", (req, socket, head) => {
		acpRequests++;
		if (!authorized(req)) {
			socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
			return;
		}
		upgrade(req, socket, head);
	});
}

httpServer.listen(Number(process.env.SDK_AGENT_PORT || 0), "127.0.0.1", () => {
	console.log(`listening http://127.0.0.1:${httpServer.address().port}/acp`);
});
