// The sidecar logs to stderr in Python's logging format. vscode-languageclient would file
// every stderr line as an error; this keeps each line at the level the sidecar gave it.

export type LogLevelName = "trace" | "debug" | "info" | "warn" | "error";

const LINE = /^\d{4}-\d\d-\d\d[ T][\d:.,]+\s+(DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+(.*)$/;

const levels: Record<string, LogLevelName> = {
  DEBUG: "debug",
  INFO: "info",
  WARNING: "warn",
  ERROR: "error",
  CRITICAL: "error",
};

export interface LeveledLine {
  level: LogLevelName;
  text: string;
}

/**
 * Returns a parser that remembers the last level: a traceback's lines belong to the record
 * above them. Output before any record (an interpreter that cannot even import the
 * sidecar) counts as an error.
 */
export function stderrLineParser(): (line: string) => LeveledLine {
  let last: LogLevelName = "error";
  return (line) => {
    const m = LINE.exec(line);
    if (!m) return { level: last, text: line };
    last = levels[m[1]] ?? "info";
    // The output channel stamps its own time; the sidecar's would only repeat it.
    return { level: last, text: m[2] };
  };
}
