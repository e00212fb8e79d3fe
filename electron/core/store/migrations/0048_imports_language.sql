-- The language the window that started an import speaks (ru, en): its errors file is written in it, also when
-- it is made later or the run is taken up again after a crash. NULL: imports from before, or from the HTTP
-- interface, whose files follow the app's language setting.
ALTER TABLE imports ADD COLUMN language TEXT CHECK (language IN ('ru', 'en'));
