//! The public reply fixtures of mailgun/talon and github/email_reply_parser
//! (see `tests/fixtures/replies/README.md`) as a table: for each mail, the
//! words pbem reads as the sender's own (white space ignored).

use std::path::Path;

use pbem::mail::inbound::Inbound;
use pbem::mail::reply::{Known, own_words};

/// File, and the sender's words with all white space removed.
const TABLE: &[(&str, &str)] = &[
    ("talon/android.eml", "Hello"),
    ("talon/aol.eml", "Hello"),
    ("talon/apple_mail.eml", "Hello"),
    ("talon/apple_mail_2.eml", "Hello"),
    ("talon/comcast.eml", "Hello"),
    ("talon/gmail.eml", "Hello"),
    ("talon/hotmail.eml", "Hello"),
    ("talon/iphone.eml", "Hello"),
    ("talon/outlook.eml", "Hello"),
    ("talon/sparrow.eml", "Hello"),
    ("talon/thunderbird.eml", "Hello"),
    ("talon/yahoo.eml", "Hello"),
    ("talon/gmail.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/hotmail.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/mail_ru.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/ms_outlook_2003.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/ms_outlook_2007.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/ms_outlook_2010.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/thunderbird.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/windows_mail.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/yandex_ru.html", "Hi.Iamfine.Thanks,Alex"),
    ("talon/reply-separated-by-hr.html", "HithereBob"),
    ("talon/OLK_SRC_BODY_SECTION.html", "Reply"),
    (
        "email_reply_parser/email_1_1.txt",
        "HifolksWhatisthebestwaytoclearaRiakbucketofallkey,valuesafterrunningatest?IamcurrentlyusingtheJavaHTTPAPI.-AbhishekKona",
    ),
    (
        "email_reply_parser/email_1_2.txt",
        "Hi,Youcanlistthekeysforthebucketandcalldeleteforeach.Orifyouputthekeys(andkepttrackoftheminyourtest)youcandeletethemoneatatime(withoutincurringthecostofcallinglistfirst.)Somethinglike:Stringbucket=\"my_bucket\";BucketResponsebucketResponse=riakClient.listBucket(bucket);RiakBucketInfobucketInfo=bucketResponse.getBucketInfo();for(Stringkey:bucketInfo.getKeys()){riakClient.delete(bucket,key);}woulddoit.Seealsohttp://wiki.basho.com/REST-API.html#Bucket-operationswhichsays\"AtthemomentthereisnostraightforwardwaytodeleteanentireBucket.Thereis,however,anopenticketforthefeature.Todeleteallthekeysinabucket,you’llneedtodeletethemallindividually.\"",
    ),
    (
        "email_reply_parser/email_1_5.txt",
        "One:Here'swhatI'vegot.-Thiswouldbethefirstbulletpointthatwrapstothesecondlinetothenext-Thisisthesecondbulletpointanditdoesn'twrap-ThisisthethirdbulletpointandI'mhavingtroublecomingupwithenoughtosay-ThisisthefourthbulletpointTwo:-Hereisanotherbulletpoint-AndanotheroneThisisaparagraphthattalksaboutabunchofstuff.Itgoesonandonforawhile.",
    ),
    (
        "talon/reply-quotations-share-block.eml",
        "HiKatharine.Soundsgreat.Arethereanddietryrestrictionsorthingsyourhusbanddoes/doesn'tliketoeat?Wouldyouliketodoafewhorsdoeuvresandthena3or4coursedinner?LetmeknowwhatyouthinkwillworkbestandIwillstartworkingonamenuandproposal.Thankssomuchandlookforwardtohearingfromyousoon.JoeXXX",
    ),
    (
        "email_reply_parser/correct_sig.txt",
        "thisisanemailwithacorrect--signature.",
    ),
    (
        "email_reply_parser/email_1_3.txt",
        "Ohthanks.Havingthefunctionwouldbegreat.-AbhishekKona",
    ),
    (
        "email_reply_parser/email_1_4.txt",
        "Awesome!Ihaven'thadanotherproblemwithit.",
    ),
    (
        "email_reply_parser/email_1_6.txt",
        "Igetproperrenderingaswell.Sentfromamagnificenttorchofpixels",
    ),
    ("email_reply_parser/email_1_7.txt", ":+1:"),
    (
        "email_reply_parser/email_1_8.txt",
        "Iwillreplyunderthisoneandunderthis.",
    ),
    ("email_reply_parser/email_2_1.txt", "Outlookwithareply"),
    (
        "email_reply_parser/email_2_2.txt",
        "Outlookwithareplydirectlyaboveline",
    ),
    (
        "email_reply_parser/email_2_3.txt",
        "Outlookwithareplydirectlyaboveline",
    ),
    (
        "email_reply_parser/email_BlackBerry.txt",
        "Hereisanotheremail",
    ),
    ("email_reply_parser/email_iPhone.txt", "Hereisanotheremail"),
    (
        "email_reply_parser/email_multi_word_sent_from_my_mobile_device.txt",
        "Hereisanotheremail",
    ),
    (
        "email_reply_parser/email_sent_from_my_not_signature.txt",
        "Hereisanotheremail Sentfrommydesk,ismucheasierthenmymobilephone.",
    ),
    (
        "email_reply_parser/email_sig_delimiter_in_middle_of_line.txt",
        "Hithere!Stuffhappened.Andhereisafix--thisisnotasignature.kthxbai",
    ),
    (
        "email_reply_parser/email_one_is_not_on.txt",
        "Thank,thisisreallyhelpful.OneoutstandingquestionIhad:Locally(ondevelopment),whenIrun...",
    ),
    (
        "email_reply_parser/pathological.txt",
        "Ithinkyou'reontosomething.IwilltrytofixtheproblemassoonasIgetbacktoacomputer.",
    ),
    (
        "email_reply_parser/greedy_on.txt",
        "Onyourremotehostyoucanrun:telnet127.0.0.152698ThisshouldconnecttoTextMate(onyourMac,viathetunnel).Ifthatfails,thetunnelisnotworking.",
    ),
    (
        "email_reply_parser/email_bullets.txt",
        "test2thisshouldlistsecondandhavespacesandretainthisformatting-howaboutbullets-andanother",
    ),
];

fn words_of(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/replies")
        .join(file);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let words = if file.ends_with(".eml") {
        let mail = Inbound::parse(&raw);
        own_words(&mail.body, mail.html.as_deref(), &Known::none())
    } else if file.ends_with(".html") {
        own_words("", Some(&String::from_utf8_lossy(&raw)), &Known::none())
    } else {
        own_words(&String::from_utf8_lossy(&raw), None, &Known::none())
    };
    words.concat().split_whitespace().collect()
}

#[test]
fn the_public_reply_fixtures_yield_the_senders_words() {
    let mut wrong = Vec::new();
    for (file, expected) in TABLE {
        let expected: String = expected.split_whitespace().collect();
        let found = words_of(file);
        if found != expected {
            wrong.push(format!(
                "{file}:\n  expected {expected}\n  found    {found}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_fixture_is_in_the_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replies");
    for dir in ["talon", "email_reply_parser"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("fixture folder") {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .to_string();
            let file = format!("{dir}/{name}");
            // talon's expected texts (`*_reply_text`) keep signatures that
            // pbem leaves out; the table says what pbem reads instead.
            let skipped = name == "LICENSE" || name.ends_with("_reply_text");
            assert!(
                skipped || TABLE.iter().any(|(f, _)| *f == file),
                "{file} is not in the table"
            );
        }
    }
}
