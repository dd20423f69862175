/** Commands a tool needs from the machine: finding them, installing a missing one, and CPU pinning. */
import { spawnSync } from "node:child_process";

export function hasCommand(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/**
 * Installs the Debian package of a missing command when this process is root and has
 * apt-get (saying so on stderr); true when the command is there afterwards. Anyone else
 * is left to say how to install it.
 */
export function ensureCommand(command: string, debianPackage = command): boolean {
  if (hasCommand(command)) return true;
  if (process.getuid?.() === 0 && hasCommand("apt-get")) {
    process.stderr.write(`${command} is missing: installing the Debian package (apt-get install -y ${debianPackage})\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const install = () => spawnSync("apt-get", ["install", "-y", "-qq", debianPackage], { stdio: "inherit", env }).status === 0;
    // A fresh machine may have no package lists yet.
    if (!install()) {
      spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
      install();
    }
  }
  return hasCommand(command);
}

/** Pins this process (every thread) to the given CPUs; children inherit it. */
export function pinSelf(cpus: string): void {
  spawnSync("taskset", ["-a", "-p", "-c", cpus, String(process.pid)], { stdio: "ignore" });
}
