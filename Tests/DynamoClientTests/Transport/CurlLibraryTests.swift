#if canImport(CCurl)
    import CCurl
    import Testing

    /// libcurl is loaded with `dlopen` on the first transfer, not linked: the loader with the
    /// system's libcurl, with a file that is not there, and with a library that lacks libcurl's
    /// functions (each names what went wrong, as `ld_curl_load_error` then reports it).
    @Suite struct CurlLibraryTests {
        /// Opens `file` with the loader; the library (closed by the caller) or the error text.
        private func open(_ file: String) -> (OpaquePointer?, String) {
            var error = [CChar](repeating: 0, count: 512)
            let library = ld_curl_library_open(file, &error, error.count)
            return (library, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }

        @Test func opensTheSystemLibcurlAndFindsItsFunctions() throws {
            let (opened, error) = open("libcurl.so.4")
            let library = try #require(opened, "\(error)")
            defer { ld_curl_library_close(library) }
            #expect(error.isEmpty)
            #expect(String(cString: ld_curl_library_version(library)).hasPrefix("libcurl/"))
        }

        @Test func aMissingFileIsNamedInTheError() {
            let (library, error) = open("/nonexistent/libcurl.so.4")
            #expect(library == nil)
            #expect(error.contains("/nonexistent/libcurl.so.4"))
        }

        @Test func aLibraryWithoutLibcurlsFunctionsIsRefused() {
            let (library, error) = open("libz.so.1")
            #expect(library == nil)
            #expect(error.contains("libz.so.1 has no curl_global_init"))
        }

        @Test func theProcessWideLoadSucceedsOnceAndHandsOutHandles() throws {
            #expect(ld_curl_load())
            #expect(ld_curl_load())
            #expect(String(cString: ld_curl_load_error()).isEmpty)
            let handle = try #require(ld_curl_easy_init())
            defer { ld_curl_easy_cleanup(handle) }
            #expect(ld_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1) == CURLE_OK)
            #expect(String(cString: ld_curl_easy_strerror(CURLE_COULDNT_CONNECT)).lowercased().contains("connect"))
        }
    }
#endif
