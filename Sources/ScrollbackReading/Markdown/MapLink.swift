import Foundation

/// A point on the map that a Markdown message names by a link (spec §2: a `geo:` URI with its
/// RFC 5870 parameters, or the query forms map apps write), for `location` kind inference.
///
/// Exactly these forms, `http` or `https` for the web ones:
/// - `geo:48.2,16.3`, `geo:48.2,16.3,183` (altitude), with RFC 5870 parameters
///   `;crs=wgs84` (the only coordinate system there is a map for; in any position),
///   `;u=35` (uncertainty in metres) and others `;name=value`; Android's query `?z=12` is ignored and
///   `geo:0,0?q=48.2,16.3(Label)` names the query's point, with its label;
/// - Google Maps: `https://maps.google.com/?q=48.2,16.3` (also `ll=`), the same on
///   `www.google.com/maps` and `google.com/maps`, and the Maps URLs API
///   `https://www.google.com/maps/search/?api=1&query=48.2,16.3`;
/// - OpenStreetMap: `https://www.openstreetmap.org/?mlat=48.2&mlon=16.3` (any `#map=` fragment
///   is ignored);
/// - Apple Maps: `https://maps.apple.com/?ll=48.2,16.3`, labelled by its `q=` when that is not
///   a coordinate pair.
///
/// A link of these hosts that names a place by a search text (`?q=Vienna`) is no point: it
/// stays a link.
enum MapLink {
    /// A point and, when the link gives one, its label.
    struct Point: Equatable {
        var latitude: Double
        var longitude: Double
        var label: String?
    }

    /// The point `link` names, or `nil` when it is none of the forms above (or is out of range).
    static func point(in link: String) -> Point? {
        let lowered = link.lowercased()
        if lowered.hasPrefix("geo:") { return geoPoint(String(link.dropFirst(4))) }
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"),
            let components = URLComponents(string: link), let host = components.host?.lowercased()
        else { return nil }
        let items = components.queryItems ?? []
        func value(_ name: String) -> String? {
            items.first { $0.name == name }?.value?.replacingOccurrences(of: "+", with: " ")
        }
        let path = components.path
        switch host {
        case "maps.google.com", "www.google.com", "google.com":
            if host != "maps.google.com", path != "/maps", !path.hasPrefix("/maps/") { return nil }
            if path.hasPrefix("/maps/search"), value("api") == "1" {
                return value("query").flatMap(coordinatePair).map { Point(latitude: $0.0, longitude: $0.1) }
            }
            guard let pair = (value("q") ?? value("ll")).flatMap(coordinatePair) else { return nil }
            return Point(latitude: pair.0, longitude: pair.1)
        case "www.openstreetmap.org", "openstreetmap.org":
            guard let latitude = value("mlat").flatMap({ coordinate($0[...]) }),
                let longitude = value("mlon").flatMap({ coordinate($0[...]) })
            else { return nil }
            return checked(latitude, longitude, label: nil)
        case "maps.apple.com":
            guard let pair = value("ll").flatMap(coordinatePair) else { return nil }
            let label = value("q").flatMap { coordinatePair($0) == nil ? $0 : nil }
            return checked(pair.0, pair.1, label: label?.isEmpty == false ? label : nil)
        default:
            return nil
        }
    }

    /// `LAT,LON[,ALT][;params][?query]` of a `geo:` URI.
    private static func geoPoint(_ body: String) -> Point? {
        let (path, query) =
            body.firstIndex(of: "?").map { (body[..<$0], Optional(body[body.index(after: $0)...])) } ?? (body[...], nil)
        let parts = path.split(separator: ";", omittingEmptySubsequences: false)
        let numbers = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2 || numbers.count == 3, let latitude = coordinate(numbers[0]),
            let longitude = coordinate(numbers[1])
        else { return nil }
        if numbers.count == 3, coordinate(numbers[2]) == nil { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].lowercased()
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { return nil }
            let value = pair.count == 2 ? pair[1] : ""
            switch name {
            case "crs":
                // WGS-84 is the one coordinate system a map shows. (RFC 5870's grammar puts `crs`
                // first; writers put it anywhere, and it means the same.)
                guard value.lowercased() == "wgs84" else { return nil }
            case "u":
                guard let uncertainty = Double(value), uncertainty >= 0, uncertainty.isFinite else { return nil }
            default:
                guard
                    value.allSatisfy({
                        $0.isASCII && ($0.isLetter || $0.isNumber || "-_.!~*'()%[]:&+$".contains($0))
                    })
                else { return nil }
            }
        }
        // Android: `geo:0,0?q=LAT,LON(Label)` names the query's point.
        if latitude == 0, longitude == 0, let query,
            let q = query.split(separator: "&").first(where: { $0.hasPrefix("q=") })
        {
            let text = (q.dropFirst(2).removingPercentEncoding ?? String(q.dropFirst(2)))
                .replacingOccurrences(of: "+", with: " ")
            var coordinates = text[...]
            var label: String?
            if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
                coordinates = text[..<open]
                label = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            }
            guard let pair = coordinatePair(String(coordinates)) else { return nil }
            return checked(pair.0, pair.1, label: label?.isEmpty == false ? label : nil)
        }
        return checked(latitude, longitude, label: nil)
    }

    /// `LAT,LON` with optional spaces after the comma, both in range.
    private static func coordinatePair(_ text: String) -> (Double, Double)? {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2,
            let latitude = coordinate(numbers[0].drop(while: \.isWhitespace)),
            let longitude = coordinate(numbers[1].drop(while: \.isWhitespace)),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    private static func checked(_ latitude: Double, _ longitude: Double, label: String?) -> Point? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return Point(latitude: latitude, longitude: longitude, label: label)
    }

    /// A decimal number: digits, `.` and a leading `-`.
    private static func coordinate(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }
}
