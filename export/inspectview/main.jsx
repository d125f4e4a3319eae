// Inspect's published log viewer, opening the logs of one folder served
// beside this page (?dir=, default "logs", holding the listing.json that
// bench export writes). The browser test serves an export with it.
import { createRoot } from "react-dom/client";
import { App, clientApi, simpleHttpApi, initializeStore } from "@metrevals/inspect-log-viewer";
import "@metrevals/inspect-log-viewer/styles/index.css";

const dir = new URLSearchParams(window.location.search).get("dir") || "logs";
const api = clientApi(simpleHttpApi(dir));
initializeStore(api, { downloadFiles: false, downloadLogs: false, webWorkers: false, streamSamples: true, streamSampleData: true });
createRoot(document.getElementById("app")).render(<App api={api} />);
