import ArgumentParser
import SceneFormat

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of the scene format (for editors and CI validation).")
    func run() throws {
        print(SceneSchema.jsonSchema)
    }
}
