// The studio's WebSocket: connects (and reconnects, backing off) to the project's channel,
// reports its state, decodes server messages and hands each to the handler named by its type.

export function connectSocket({ projectId, handlers, onState, onOpen }) {
  let socket = null;
  let retryDelay = 500;
  let project = projectId;

  function open() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const query = project ? "?project=" + encodeURIComponent(project) : "";
    socket = new WebSocket(scheme + location.host + "/ws/studio/" + query);
    onState("connecting");
    socket.addEventListener("open", () => {
      retryDelay = 500;
      onState("open");
      onOpen();
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      const handler = data && handlers[data.type];
      if (handler) handler(data);
    });
    socket.addEventListener("close", () => {
      onState("closed");
      setTimeout(open, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 8000);
    });
  }

  open();
  return {
    // False when the message could not go out (the caller says so in place).
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
  };
}
