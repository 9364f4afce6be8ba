// Writes the fuzz targets' seed corpora (seed_corpus.h) as files, one folder per target:
//   lbm_fuzz_corpus_generator OUT_DIR [TARGET...]
// OUT_DIR/<target>/<seed name>. Run by scripts/fuzz.sh into the build tree; nothing it writes
// is checked in.

#include "tests/fuzz/seed_corpus.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStringList>
#include <QTextStream>

#include <exception>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QTextStream err(stderr);
    QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty()) {
        err << "usage: lbm_fuzz_corpus_generator OUT_DIR [TARGET...]\n";
        return 2;
    }
    const QDir out(arguments.takeFirst());
    if (arguments.isEmpty()) {
        arguments = {QString::fromLatin1(lbm::fuzz::kServerMessageTarget),
                     QString::fromLatin1(lbm::fuzz::kWorkloadFileTarget),
                     QString::fromLatin1(lbm::fuzz::kSessionDocumentTarget),
                     QString::fromLatin1(lbm::fuzz::kStreamDecoderTarget)};
    }
    try {
        for (const QString& target : arguments) {
            const auto seeds = lbm::fuzz::seedsFor(target);
            if (!out.mkpath(target)) {
                err << "cannot create " << out.filePath(target) << '\n';
                return 1;
            }
            for (const lbm::fuzz::Seed& seed : seeds) {
                QFile file(out.filePath(target + QLatin1Char('/') + seed.name));
                if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
                    file.write(seed.bytes) != seed.bytes.size()) {
                    err << "cannot write " << file.fileName() << '\n';
                    return 1;
                }
            }
            err << target << ": " << seeds.size() << " seeds\n";
        }
    } catch (const std::exception& error) {
        err << "ERROR: " << error.what() << '\n';
        return 1;
    }
    return 0;
}
