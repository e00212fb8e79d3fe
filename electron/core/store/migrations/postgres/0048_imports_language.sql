-- Twin of SQLite's 0047: the language of the window that started an import (ru, en), for its errors file.
-- NULL: imports from before, or from the HTTP interface (the app's language setting).
ALTER TABLE imports ADD COLUMN language text CHECK (language IN ('ru', 'en'));
