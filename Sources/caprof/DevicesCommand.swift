import ArgumentParser
import Render

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the Vulkan devices found and why each is used or rejected.")

    func run() throws {
        let out = Terminal.stdout
        do {
            let reports = try VulkanDevice.survey()
            for r in reports {
                let mark = r.selected ? out.green("●") : r.accepted ? "○" : "✗"
                let status = r.selected ? out.green("selected") : r.accepted ? "accepted" : "rejected"
                out.write("\(mark) \(out.bold(r.name))  \(out.dim("\(r.kind.rawValue), Vulkan \(r.apiVersion), \(r.driver)"))")
                out.write("    \(status): \(r.reason)")
            }
            if !reports.contains(where: \.selected) { throw RenderError.noSuitableDevice(reports) }
        } catch {
            throw fail(error)
        }
    }
}
