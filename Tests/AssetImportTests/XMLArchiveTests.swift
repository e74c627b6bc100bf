import XCTest
@testable import AssetImport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// NSKeyedArchiver also writes XML plists (`{"CF$UID": n}` references); the importer reads them.
final class XMLArchiveTests: XCTestCase {
    func testXMLKeyedArchive() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>$archiver</key><string>NSKeyedArchiver</string>
          <key>$version</key><integer>100000</integer>
          <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
          <key>$objects</key><array>
            <string>$null</string>
            <dict><key>$class</key><dict><key>CF$UID</key><integer>3</integer></dict>
                  <key>bounds</key><dict><key>CF$UID</key><integer>2</integer></dict>
                  <key>opacity</key><real>0.5</real></dict>
            <dict><key>$class</key><dict><key>CF$UID</key><integer>4</integer></dict>
                  <key>kind</key><integer>2</integer><key>x</key><real>0</real><key>y</key><real>0</real>
                  <key>width</key><real>64</real><key>height</key><real>32</real></dict>
            <dict><key>$classname</key><string>CALayer</string><key>$classes</key><array><string>CALayer</string><string>NSObject</string></array></dict>
            <dict><key>$classname</key><string>LKNSValueCodingProxy</string><key>$classes</key><array><string>LKNSValueCodingProxy</string><string>NSObject</string></array></dict>
          </array>
        </dict></plist>
        """
        let doc = try ArchiveImporter.decode(data: Array(xml.utf8), file: "x.caar")
        XCTAssertEqual(doc.scene.root.bounds.width, 64)
        XCTAssertEqual(doc.scene.root.opacity, 0.5)
        XCTAssertEqual(doc.scene.canvas.height, 32)
    }
}
